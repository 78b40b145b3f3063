import { describe, expect, it } from 'vitest';
import { registeredClient } from '../../support/accounts';
import { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { useTestServer } from '../../support/testServer';

// Sessions are listed as 'Chrome on Android, Bristol area': the area only from a proxy the site
// trusts (TRUST_PROXY=1, Cloudflare's cf-ipcity header), recorded at sign-in.

const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';
const MAC_SAFARI =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';

/** Signs a second client in as this account with these headers on the sign-in request. */
async function signInWith(url: string, username: string, password: string, headers: Record<string, string>) {
  const client = new TestClient(url);
  await client.fetchCsrfToken();
  expect((await client.post('/api/login', { username, password }, headers)).status).toBe(200);
  return client;
}

for (const trustProxy of ['1', '0']) {
  describe.skipIf(engineUnavailable())(
    `session labels with TRUST_PROXY=${trustProxy} on ${testEngine()}`,
    () => {
      let url: string;
      useTestServer(
        (server) => {
          url = server.url;
        },
        { env: { TRUST_PROXY: trustProxy } },
      );

      it('names the browser and system, and the area only when the trusted proxy gave one at sign-in', async () => {
        const { client, body } = await registeredClient(url);
        const phone = await signInWith(url, body.username, body.password, {
          'User-Agent': ANDROID_CHROME,
          'cf-ipcity': 'Bristol',
        });
        // A later request naming another town does not move the session.
        await phone.request('GET', '/api/user', undefined, {
          'cf-ipcity': 'Leeds',
          'User-Agent': ANDROID_CHROME,
        });
        await signInWith(url, body.username, body.password, {
          'User-Agent': MAC_SAFARI,
          'cf-ipcity': '<script>alert(1)</script>',
        });

        const list: Array<{ device: string; area: string | null; label: string }> = (
          await client.get('/api/account/sessions')
        ).body;
        const phoneRow = list.find((s) => s.device === 'Chrome on Android');
        const macRow = list.find((s) => s.device === 'Safari on macOS');
        if (trustProxy === '1') {
          expect(phoneRow).toMatchObject({ area: 'Bristol', label: 'Chrome on Android, Bristol area' });
        } else {
          // Anyone can send the header: untrusted, it is ignored.
          expect(phoneRow).toMatchObject({ area: null, label: 'Chrome on Android' });
        }
        // Not a town's name: never shown.
        expect(macRow).toMatchObject({ area: null, label: 'Safari on macOS' });
        expect(list.every((s) => !s.label.includes('Mozilla'))).toBe(true);
      });
    },
  );
}
