import { describe, expect, it } from 'vitest';
import { deviceName, presentSession, sessionLabel } from '../../api/accounts/security/sessionPresenter';

describe('how a session is named in its list', () => {
  it('names the browser and system from the user agent', () => {
    expect(
      deviceName(
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
      ),
    ).toBe('Chrome on Android');
    expect(
      deviceName(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('Safari on iOS');
    expect(
      deviceName('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0'),
    ).toBe('Firefox on Windows');
    expect(deviceName(undefined)).toBeNull();
    expect(deviceName('')).toBeNull();
  });

  it("adds the area when one is known, and says 'Unknown browser' rather than a raw string", () => {
    expect(sessionLabel('Chrome on Android', 'Bristol')).toBe('Chrome on Android, Bristol area');
    expect(sessionLabel('Chrome on Android', null)).toBe('Chrome on Android');
    expect(sessionLabel(null, null)).toBe('Unknown browser');
    const view = presentSession('abc', { userAgent: 'curl/8.5.0', signedInAt: 0, area: 'Truro' }, false);
    expect(view.label).not.toContain('curl/8.5.0');
  });
});
