import { TestClient } from './httpClient';
import { decodeQuotedPrintable, outboxFiles } from './outbox';

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
    dateOfBirth: '1990-04-01',
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

/** The outbox e-mails to this address (RFC 822 text, quoted-printable decoded), oldest first. */
export function emailsTo(dataDir: string, address: string): string[] {
  return outboxFiles(dataDir)
    .map(({ raw }) => decodeQuotedPrintable(raw))
    .filter((mail) => new RegExp(`^To: .*${address.replace(/[.+]/g, '\\$&')}`, 'im').test(mail));
}

/**
 * Waits for the `count`th e-mail to `address` whose text contains `containing` (the mailer writes
 * some in the background), and returns it.
 */
export async function waitForEmail(dataDir: string, address: string, containing: string, count = 1) {
  for (let i = 0; i < 100; i++) {
    const found = emailsTo(dataDir, address).filter((m) => m.includes(containing));
    if (found.length >= count) return found[count - 1]!;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no e-mail to ${address} containing "${containing}"`);
}

/** The token of the link to `page` (/reset-password, /verify-email) in an e-mail. */
export function linkToken(mail: string, page: string): string {
  const match = new RegExp(`${page}\\?token=([A-Za-z0-9_-]+)`).exec(mail);
  if (!match) throw new Error(`no ${page} link in the e-mail`);
  return match[1]!;
}

/** A registered customer whose address is confirmed (welcome credit paid, when a promo is live). */
export async function verifiedClient(
  baseUrl: string,
  dataDir: string,
  overrides: Record<string, unknown> = {},
) {
  const registered = await registeredClient(baseUrl, overrides);
  await waitForEmail(dataDir, registered.body.email, '/verify-email?token=');
  // The latest link: an earlier account may have had the same address.
  const mail = emailsTo(dataDir, registered.body.email)
    .filter((m) => m.includes('/verify-email?token='))
    .at(-1)!;
  const res = await registered.client.post('/api/verify-email', { token: linkToken(mail, '/verify-email') });
  if (res.status !== 200) throw new Error(`verify failed: ${res.status} ${res.text}`);
  return { ...registered, user: (await registered.client.get('/api/user')).body };
}
