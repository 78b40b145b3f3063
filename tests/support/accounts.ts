import { TestClient } from './httpClient';

let n = 0;

/** A valid registration body; override any field. */
export function registration(overrides: Record<string, unknown> = {}) {
  n++;
  const username = `player${process.pid}x${n}`;
  return {
    username,
    email: `${username}@example.co.uk`,
    password: 'secret123',
    firstName: 'Pat',
    lastName: 'Penhallow',
    phoneNumber: '07700 900123',
    guestSessionId: null,
    ageConfirmation: true,
    ukResidency: true,
    termsAgreement: true,
    ...overrides,
  };
}

/** A new visitor who registers (CSRF token fetched first, as the site does). */
export async function registeredClient(baseUrl: string, overrides: Record<string, unknown> = {}) {
  const client = new TestClient(baseUrl);
  await client.fetchCsrfToken();
  const body = registration(overrides);
  const res = await client.post('/api/register', body);
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`);
  // The token is renewed with the new session.
  await client.fetchCsrfToken();
  return { client, body, user: res.body };
}
