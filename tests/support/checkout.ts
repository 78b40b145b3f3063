import fs from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import { expect } from 'vitest';
import { registeredClient } from './accounts';
import type { TestClient } from './httpClient';

// Helpers for the checkout and payment tests.

export const CARDS = {
  visa: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
  insufficientFunds: '4000 0000 0000 9995',
  expired: '4000 0000 0000 0069',
} as const;

/** A card form as the sandbox page sends it; override any field. */
export const card = (overrides: Record<string, unknown> = {}) => ({
  cardNumber: CARDS.visa,
  expMonth: 12,
  expYear: new Date().getUTCFullYear() + 3,
  cvc: '123',
  ...overrides,
});

/** A registered, signed-in customer who has answered the skill question of these competitions. */
export async function customer(baseUrl: string, ...competitionIds: number[]) {
  const registered = await registeredClient(baseUrl);
  for (const id of competitionIds) {
    const res = await registered.client.post(`/api/competitions/${id}/skill-answer`, { answer: '365' });
    if (res.body?.correct !== true) throw new Error(`skill answer failed: ${res.status} ${res.text}`);
  }
  return { client: registered.client, user: registered.user as { id: number; email: string } };
}

/** Holds these numbers (or a Lucky Dip of `numbers` tickets) in the client's cart; asserts 201. */
export async function hold(client: TestClient, competitionId: number, numbers: number[] | number) {
  const body = Array.isArray(numbers)
    ? { competitionId, quantity: numbers.length, selectedNumbers: numbers }
    : { competitionId, quantity: numbers };
  const res = await client.post('/api/cart', body);
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number; heldNumbers: number[] };
}

/** POST /api/create-payment-intent; asserts 200. */
export async function startCheckout(client: TestClient, body: Record<string, unknown> = {}) {
  const res = await client.post('/api/create-payment-intent', body);
  expect(res.status, res.text).toBe(200);
  return res.body as {
    clientSecret: string | null;
    orderId: number;
    orderNumber: string;
    amount: number;
    subtotal: number;
    creditApplied: number;
    provider: string;
    status: string;
    debitCardsOnly: boolean;
  };
}

/** Site credit the way the app grants it: a ledger row and the balance moved together. */
export async function grantCredit(db: Knex, userId: number, pence: number) {
  await db.transaction(async (trx) => {
    await trx('creditTransactions').insert({
      userId,
      type: 'credit',
      amountPence: pence,
      description: 'Test credit',
      createdAt: Date.now(),
    });
    await trx('users').where({ id: userId }).increment('siteCreditPence', pence);
  });
}

/** The balance and what the ledger says it should be. */
export async function creditState(db: Knex, userId: number) {
  const user = (await db('users').where({ id: userId }).first('siteCreditPence')) as {
    siteCreditPence: number;
  };
  const rows = (await db('creditTransactions')
    .where({ userId })
    .select('type', 'amountPence', 'orderId')) as Array<{
    type: 'credit' | 'debit';
    amountPence: number;
    orderId: number | null;
  }>;
  const ledger = rows.reduce((sum, r) => sum + (r.type === 'credit' ? 1 : -1) * Number(r.amountPence), 0);
  return { balance: Number(user.siteCreditPence), ledger, rows };
}

export const outboxFiles = (dataDir: string) => {
  const dir = path.join(dataDir, 'outbox');
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.eml')) : [];
};

/** Confirmation e-mails whose text mentions this order number. */
export const emailsFor = (dataDir: string, orderNumber: string) =>
  outboxFiles(dataDir)
    .map((f) => fs.readFileSync(path.join(dataDir, 'outbox', f), 'utf8'))
    .filter((text) => text.includes(orderNumber));

export const orderRow = (db: Knex, id: number) => db('orders').where({ id }).first();

export const ticketsOf = async (db: Knex, competitionId: number) =>
  (
    (await db('tickets')
      .where({ competitionId })
      .orderBy('number')
      .select('number', 'status', 'orderId', 'userId')) as Array<{
      number: number;
      status: string;
      orderId: number | null;
      userId: number | null;
    }>
  ).map((r) => ({ ...r, orderId: r.orderId === null ? null : Number(r.orderId) }));

export const soldNumbers = async (db: Knex, competitionId: number, orderId: number) =>
  (await ticketsOf(db, competitionId))
    .filter((t) => t.status === 'sold' && t.orderId === orderId)
    .map((t) => t.number);

export const ticketsSold = async (db: Knex, competitionId: number) =>
  Number((await db('competitions').where({ id: competitionId }).first('ticketsSold')).ticketsSold);

/**
 * The core guarantees, checked on the whole database: no (competition, number) twice, and every
 * competition's ticketsSold equals its sold rows.
 */
export async function expectTicketInvariants(db: Knex) {
  const duplicates = await db('tickets')
    .select('competitionId', 'number')
    .count({ n: '*' })
    .groupBy('competitionId', 'number')
    .having(db.raw('count(*) > 1'));
  expect(duplicates).toEqual([]);
  const mismatched = await db('competitions as c')
    .leftJoin('tickets as t', (j) => j.on('t.competitionId', 'c.id').andOnVal('t.status', 'sold'))
    .groupBy('c.id', 'c.ticketsSold')
    .select('c.id', 'c.ticketsSold')
    .count({ sold: 't.id' })
    .havingRaw('count(t.id) <> c.tickets_sold');
  expect(mismatched).toEqual([]);
}
