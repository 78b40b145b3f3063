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

/** A visitor with a CSRF token who has answered the skill question for these competitions. */
export async function shopper(baseUrl: string, ...competitionIds: number[]) {
  const client = new TestClient(baseUrl);
  await client.fetchCsrfToken();
  for (const id of competitionIds) {
    const res = await client.post(`/api/competitions/${id}/skill-answer`, { answer: '365' });
    if (res.body?.correct !== true) throw new Error(`skill answer failed: ${res.status} ${res.text}`);
  }
  return client;
}
