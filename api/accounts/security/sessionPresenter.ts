import Bowser from 'bowser';
import type { AccountSessionView } from '../../../contract/account';
import { iso } from '../../../contract/dates';
import type { SessionData } from '../../platform/sessions';

// A session as its owner reads it in their list: 'Chrome on Android, Bristol area', never the raw
// user-agent string. Bowser (a maintained parser) names the browser and the system; the area is
// only what a trusted proxy told us at sign-in (api/http/session.ts), since there is no offline
// address-to-place database here.

/** 'Chrome on Android' ('Chrome' when the system is unknown); null for no or an unreadable agent. */
export function deviceName(userAgent: string | undefined): string | null {
  if (!userAgent) return null;
  const { browser, os } = Bowser.parse(userAgent);
  if (!browser.name) return null;
  return os.name ? `${browser.name} on ${os.name}` : browser.name;
}

/** The one line a session is listed by: the device, and the area when it is known. */
export function sessionLabel(device: string | null, area: string | null): string {
  const name = device ?? 'Unknown browser';
  return area ? `${name}, ${area} area` : name;
}

export function presentSession(id: string, data: SessionData, current: boolean): AccountSessionView {
  const device = deviceName(data.userAgent);
  const area = data.area ?? null;
  return {
    id,
    device,
    area,
    label: sessionLabel(device, area),
    address: data.address ?? null,
    signedInAt: data.signedInAt ? iso(data.signedInAt) : null,
    lastSeenAt: data.lastSeenAt ? iso(data.lastSeenAt) : null,
    current,
  };
}
