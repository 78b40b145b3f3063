import type { Knex } from 'knex';
import { ERROR_CODES } from '../../../contract/errors';
import { MAX_NUMBER_ALERTS, type NumberAlertsView } from '../../../contract/numberAlerts';
import { badRequest, conflict } from '../../platform/errors';
import type { CartOwnerRef } from '../../platform/events';
import { isOwnedBy } from '../cartQueries';
import { openCompetition } from '../holdChecks';
import { liveTickets } from '../liveTickets';

// "Tell me when a number frees up" (docs/product.md#number-alerts): a visitor waits on up to five
// numbers someone else holds in an open competition; each alert is told once, when released.

/** One key per visitor: the account, or the guest session before sign-in. */
const ownerKey = (owner: CartOwnerRef) =>
  owner.userId !== null ? `u:${owner.userId}` : `g:${owner.guestId}`;

const plural = (numbers: number[]) => (numbers.length === 1 ? 'Number' : 'Numbers');
const listed = (numbers: number[]) => numbers.join(', ');

/** What this visitor waits on in the competition, ascending. */
async function waitingOn(db: Knex, competitionId: number, owner: CartOwnerRef): Promise<number[]> {
  const rows = (await db('numberAlerts')
    .where({ competitionId, ownerKey: ownerKey(owner) })
    .orderBy('number')
    .select('number')) as Array<{ number: number }>;
  return rows.map((r) => Number(r.number));
}

/**
 * Records alerts on numbers someone else holds now. Refused, changing nothing: a closed
 * competition (409 closed), a number out of range (400), one that is free (409 number_free: hold
 * it), sold or in the visitor's own cart (409), or more than five in all (400).
 */
export async function askForNumberAlerts(
  db: Knex,
  owner: CartOwnerRef,
  competitionId: number,
  asked: number[],
  now: number,
): Promise<NumberAlertsView> {
  const competition = await openCompetition(db, competitionId, now);
  const numbers = [...new Set(asked)].sort((a, b) => a - b);
  const outside = numbers.filter((n) => n > competition.totalTickets);
  if (outside.length)
    throw badRequest(
      `${plural(outside)} ${listed(outside)} ${outside.length === 1 ? 'is' : 'are'} not in this competition.`,
    );
  const live = (await liveTickets(db, competitionId, now)
    .whereIn('number', numbers)
    .select('number', 'status', 'guestId', 'userId')) as Array<{
    number: number;
    status: string;
    guestId: string | null;
    userId: number | null;
  }>;
  const byNumber = new Map(live.map((t) => [Number(t.number), t]));
  const free = numbers.filter((n) => !byNumber.has(n));
  if (free.length)
    throw conflict(
      `${plural(free)} ${listed(free)} ${free.length === 1 ? 'is' : 'are'} free now: you can hold ${free.length === 1 ? 'it' : 'them'}.`,
      { free },
      ERROR_CODES.numberFree,
    );
  const sold = numbers.filter((n) => byNumber.get(n)!.status === 'sold');
  if (sold.length)
    throw conflict(`${plural(sold)} ${listed(sold)} ${sold.length === 1 ? 'has' : 'have'} been sold.`, {
      sold,
    });
  const mine = numbers.filter((n) => isOwnedBy(owner, byNumber.get(n)!));
  if (mine.length)
    throw conflict(`${plural(mine)} ${listed(mine)} ${mine.length === 1 ? 'is' : 'are'} in your cart.`, {
      mine,
    });
  return db.transaction(async (trx) => {
    const before = await waitingOn(trx, competitionId, owner);
    const after = [...new Set([...before, ...numbers])];
    if (after.length > MAX_NUMBER_ALERTS)
      throw badRequest(
        `You can wait on at most ${MAX_NUMBER_ALERTS} numbers in a competition (you already wait on ${before.length}).`,
      );
    const rows = numbers
      .filter((n) => !before.includes(n))
      .map((number) => ({
        competitionId,
        number,
        ownerKey: ownerKey(owner),
        guestId: owner.guestId,
        userId: owner.userId,
        createdAt: now,
      }));
    if (rows.length)
      await trx('numberAlerts').insert(rows).onConflict(['competitionId', 'ownerKey', 'number']).ignore();
    return { competitionId, numbers: await waitingOn(trx, competitionId, owner) };
  });
}

export interface FreedNumbers {
  owner: CartOwnerRef;
  numbers: number[];
}

/**
 * The alerts these released numbers end, grouped by visitor, deleted as they are taken so each is
 * told once. A competition that no longer takes entries has its alerts dropped and tells no one.
 */
export async function takeFreedAlerts(
  db: Knex,
  competitionId: number,
  released: number[],
  now: number,
): Promise<FreedNumbers[]> {
  const rows = (await db('numberAlerts')
    .where({ competitionId })
    .whereIn('number', released)
    .orderBy(['ownerKey', 'number'])
    .select('id', 'number', 'ownerKey', 'guestId', 'userId')) as Array<{
    id: number;
    number: number;
    ownerKey: string;
    guestId: string;
    userId: number | null;
  }>;
  if (!rows.length) return [];
  if (!(await takesEntries(db, competitionId, now))) {
    await db('numberAlerts').where({ competitionId }).delete();
    return [];
  }
  await db('numberAlerts')
    .whereIn(
      'id',
      rows.map((r) => r.id),
    )
    .delete();
  const byOwner = new Map<string, FreedNumbers>();
  for (const r of rows) {
    const found = byOwner.get(r.ownerKey) ?? {
      owner: { guestId: r.guestId, userId: r.userId === null ? null : Number(r.userId) },
      numbers: [],
    };
    found.numbers.push(Number(r.number));
    byOwner.set(r.ownerKey, found);
  }
  return [...byOwner.values()];
}

/** Whether the competition still takes entries (the same rule as a hold's, holdChecks.assertOpen). */
async function takesEntries(db: Knex, competitionId: number, now: number): Promise<boolean> {
  try {
    await openCompetition(db, competitionId, now);
    return true;
  } catch {
    return false;
  }
}
