import Keygrip from 'keygrip';
import type { SessionData, SessionStore } from '../api/platform/sessions';
import { SESSION_COOKIE } from '../api/platform/sessions';

function parseCookies(header: string | undefined): Map<string, string> {
  const jar = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 1) continue;
    const name = part.slice(0, eq).trim();
    try {
      jar.set(name, decodeURIComponent(part.slice(eq + 1).trim()));
    } catch {
      // A malformed cookie is ignored, as a browser would.
    }
  }
  return jar;
}

/**
 * Reads the site's session from a socket handshake: the same signed cookie and store that
 * koa-session uses, so a socket is exactly as authenticated as the page that opened it.
 * Returns null for a visitor with no (valid) session yet, else the session key and its data.
 */
export async function sessionFromCookieHeader(
  header: string | undefined,
  keys: string[],
  store: SessionStore,
): Promise<{ key: string; data: SessionData } | null> {
  const jar = parseCookies(header);
  const key = jar.get(SESSION_COOKIE);
  const sig = jar.get(`${SESSION_COOKIE}.sig`);
  if (!key || !sig) return null;
  if (!new Keygrip(keys).verify(`${SESSION_COOKIE}=${key}`, sig)) return null;
  const data = await store.get(key);
  return data ? { key, data } : null;
}
