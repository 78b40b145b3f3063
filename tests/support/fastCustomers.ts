import { randomBytes, scryptSync } from 'node:crypto';
import type { Knex } from 'knex';
import { grantCredit } from './checkout';
import { insertUser } from './fixtures';
import { TestClient } from './httpClient';

// Many signed-in customers quickly, for the tests that buy with dozens at once.

export interface Shopper {
  client: TestClient;
  userId: number;
}

export const PASSWORD = 'fast-customer-password';

/**
 * Customers made in the database, named `${prefix}0`, `${prefix}1`..., each with `creditPence` on
 * their ledger. Their password hash uses a small scrypt cost (the app reads the cost from the
 * hash), so signing dozens in on a busy machine takes a moment rather than most of the time budget.
 */
export async function makeCustomers(db: Knex, count: number, prefix: string, creditPence = 500) {
  const salt = randomBytes(16);
  const key = scryptSync(PASSWORD, salt, 64, { N: 1024, r: 8, p: 1 });
  const passwordHash = ['scrypt', 1024, 8, 1, salt.toString('base64url'), key.toString('base64url')].join(
    '$',
  );
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const id = await insertUser(db, { username: `${prefix}${i}`, email: `${prefix}${i}@example.co.uk` });
    await db('users').where({ id }).update({ passwordHash });
    if (creditPence) await grantCredit(db, id, creditPence);
    ids.push(id);
  }
  return ids;
}

/** Signs a customer made by makeCustomers in and answers the skill question of each competition. */
export async function signIn(
  url: string,
  userId: number,
  username: string,
  competitionIds: number[],
): Promise<Shopper> {
  const client = new TestClient(url);
  await client.fetchCsrfToken();
  const login = await client.post('/api/login', { username, password: PASSWORD });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.text}`);
  await client.fetchCsrfToken();
  for (const id of competitionIds) {
    const res = await client.post(`/api/competitions/${id}/skill-answer`, { answer: '365' });
    if (res.body?.correct !== true) throw new Error(`skill answer failed: ${res.status} ${res.text}`);
  }
  return { client, userId };
}
