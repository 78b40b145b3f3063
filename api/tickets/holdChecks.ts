import type { Knex } from 'knex';
import { iso } from '../../contract/dates';
import { ERROR_CODES } from '../../contract/errors';
import { formatOpening } from '../../contract/londonTime';
import { selfExcludedMessage } from '../../contract/protection';
import { SITE_SETTINGS } from '../../contract/siteSettings';
import { engineOfKnex } from '../../db/dialect';
import { claimLock, shareRows } from '../../db/locks';
import { CartItem, Competition } from '../../db/models';
import { type Batched, read, runBatch, write } from '../../db/statementBatch';
import { conflict, HttpError, notFound } from '../platform/errors';
import { type BreakColumns, breakColumns, breakEndOf } from '../platform/personBreak';
import { type CartOwner, isOwnedBy, ownedBy, ownerFilter } from './cartQueries';
import { liveTickets } from './liveTickets';

// The reading half of the hold path: what a request may do, decided before anything is written.

export const CLOSED_MESSAGE = 'This competition is closed to new entries.';
/** 'This competition opens at 19:00 on 28 November.' (UK time) */
export const notOpenYetMessage = (startsAt: number) =>
  `This competition opens at ${formatOpening(startsAt)}.`;

/** The competition row, for a batch; assertOpen decides what it allows. */
export const competitionRead = (db: Knex, competitionId: number): Batched<Competition | undefined> =>
  read(db('competitions').where('id', competitionId).select('*'), (rows: object[]) =>
    rows[0] ? Competition.fromDatabaseJson(rows[0]) : undefined,
  );

/** 404 for a missing or archived competition, 409 for one closed to new entries. */
export function assertOpen(competition: Competition | undefined, now: number): Competition {
  if (!competition || competition.status === 'archived' || competition.status === 'draft')
    throw notFound('Competition not found');
  // Closed at its end date (docs/draws.md), or drawn or its beacon round fixed (the entries are
  // final then), even if an admin made it active again.
  if (
    competition.status !== 'active' ||
    competition.endDate <= now ||
    competition.drawnAt ||
    competition.drawBeaconRound
  )
    throw conflict(CLOSED_MESSAGE, undefined, ERROR_CODES.closed);
  // A scheduled launch: the page is public, nothing can be held before the opening.
  if (competition.startsAt !== null && Number(competition.startsAt) > now)
    throw conflict(
      notOpenYetMessage(Number(competition.startsAt)),
      { startsAt: iso(Number(competition.startsAt)) },
      ERROR_CODES.notOpenYet,
    );
  return competition;
}

export async function openCompetition(db: Knex, competitionId: number, now: number) {
  const [competition] = await runBatch(db, competitionRead(db, competitionId));
  return assertOpen(competition, now);
}

/**
 * 403 while the account takes a break (self-exclusion, docs/product.md#player-protection): the one
 * rule every hold, checkout and card confirmation asks. A guest (no account) may hold.
 */
export async function assertMayPlay(db: Knex, userId: number | null, now: number): Promise<void> {
  assertNotOnBreak(await selfExcludedUntil(db, userId, now));
}

/** The 403 of assertMayPlay, given when the account's break ends (null: not on one). */
export function assertNotOnBreak(until: number | null): void {
  if (until !== null) {
    throw new HttpError(403, ERROR_CODES.selfExcluded, selfExcludedMessage(iso(until)), {
      selfExcludedUntil: iso(until),
    });
  }
}

/**
 * When the person's break ends, or null when they are not taking one; for a batch. One statement:
 * the account's own break, and the exclusion register's entry for its mailbox (a break started on
 * another account of the same mailbox, or on a deleted one; accounts/protection/exclusionRegister.ts).
 */
export const breakRead = (db: Knex, userId: number, now: number): Batched<number | null> =>
  read(
    db('users')
      .where('users.id', userId)
      .select(...breakColumns(db)),
    (rows: BreakColumns[]) => {
      const until = breakEndOf(rows[0]);
      return until > now ? until : null;
    },
  );

/** When the account's break ends, or null when it is not taking one. */
export async function selfExcludedUntil(
  db: Knex,
  userId: number | null,
  now: number,
): Promise<number | null> {
  if (!userId) return null;
  const [until] = await runBatch(db, breakRead(db, userId, now));
  return until;
}

// The per-person cap (docs/security.md, "Caps and hold limits"). Every competition has one: its
// own, or when it has none (null) the site default, so one visitor cannot hoard a competition.
const CAP_FIELD = SITE_SETTINGS.ticketCap.fields.defaultMaxTicketsPerUser;

/** The site's default per-person cap (site settings, else its declared default); for a batch. */
export const defaultCapRead = (db: Knex): Batched<number> =>
  read(db('siteSettings').where({ key: CAP_FIELD.key }).select('value'), (rows: { value: string }[]) =>
    rows[0] === undefined ? CAP_FIELD.default : CAP_FIELD.decode(rows[0].value),
  );

/** The site's default per-person cap (site settings, else its declared default). */
export async function defaultCap(db: Knex): Promise<number> {
  const [cap] = await runBatch(db, defaultCapRead(db));
  return cap;
}

/** The cap that applies to this competition: its own, or the site default. */
export async function capOf(db: Knex, competition: { maxTicketsPerUser: number | null }): Promise<number> {
  return competition.maxTicketsPerUser ?? (await defaultCap(db));
}

/** The cap_locks keys of an owner: the guest session's, and the account's once signed in. */
export const capLockKeys = (owner: CartOwner): string[] =>
  [`g:${owner.guestId}`, ...(owner.userId ? [`u:${owner.userId}`] : [])].sort();

/**
 * Serialises the per-person count of one competition: parallel requests of one person (holds, a
 * sign-in merge) cannot both pass it, while other people's holds go on (migration 024). Rows are
 * locked in key order, so two transactions locking the same keys cannot wait on each other in a
 * cycle. (SQLite transactions are serial anyway.)
 *
 * Taken as a transaction's first statement, it also means the cap count that follows may be a
 * plain read: InnoDB fixes a REPEATABLE READ snapshot at the first plain read, which is then after
 * every earlier hold of this person has committed. A locking read there (FOR SHARE over the
 * competition's tickets) made holds of different people deadlock on each other's gap locks.
 */
export async function lockOwnerCap(trx: Knex.Transaction, competitionId: number, owner: CartOwner) {
  await runBatch(trx, capLock(trx, competitionId, owner));
}

/** lockOwnerCap as a batch's first statement (none on SQLite). */
export function capLock(trx: Knex.Transaction, competitionId: number, owner: CartOwner) {
  claimLock(trx, 'holdCap');
  if (engineOfKnex(trx) !== 'mysql') return undefined;
  const keys = capLockKeys(owner);
  return write(
    trx.raw(
      `INSERT INTO cap_locks (competition_id, owner_key) VALUES ${keys.map(() => '(?, ?)').join(', ')} ON DUPLICATE KEY UPDATE owner_key = owner_key`,
      keys.flatMap((key) => [competitionId, key]),
    ),
  );
}

/**
 * Held (live) plus bought tickets of this person in a competition, for the per-person cap; for a
 * batch. A plain read unless `locking` (see ticketsOfOwner).
 */
export const ownerTicketsRead = (
  trx: Knex.Transaction,
  competitionId: number,
  owner: CartOwner,
  now: number,
  { locking = false }: { locking?: boolean } = {},
): Batched<number> =>
  read(
    shareRows(
      trx,
      'ticket',
      liveTickets(trx, competitionId, now).andWhere(ownerFilter(owner, 'tickets')).count({ n: '*' }),
      locking,
    ),
    (rows: { n: number | string }[]) => Number(rows[0]?.n ?? 0),
  );

/** Held (live) plus bought tickets of this person in a competition, for the per-person cap. */
export async function ticketsOfOwner(
  trx: Knex.Transaction,
  competitionId: number,
  owner: CartOwner,
  now: number,
  { locking = true }: { locking?: boolean } = {},
) {
  // A locking read unless the caller took lockOwnerCap first: under REPEATABLE READ a plain SELECT
  // sees the snapshot of this transaction's first read, which may predate the owner's lock and
  // miss holds committed since. The locking read sees the latest committed rows.
  const [n] = await runBatch(trx, ownerTicketsRead(trx, competitionId, owner, now, { locking }));
  return n;
}

/** 409 when `adding` more would take someone with `has` tickets over `cap`. */
export function assertUnderCap(cap: number, has: number, adding: number): void {
  if (has + adding > cap) {
    throw conflict(
      `You can have at most ${cap} tickets for this competition${has ? ` and already have ${has}` : ''}.`,
      { limit: cap, current: has },
      ERROR_CODES.overCap,
    );
  }
}

/**
 * 409 when `adding` more would take the owner over the competition's cap. The caller holds
 * lockOwnerCap; `freshSnapshot` says it was the transaction's first statement, so the count
 * needs no locking read.
 */
export async function enforceCap(
  trx: Knex.Transaction,
  competition: Competition,
  owner: CartOwner,
  adding: number,
  now: number,
  { freshSnapshot = false }: { freshSnapshot?: boolean } = {},
) {
  const cap = await capOf(trx, competition);
  const has = await ticketsOfOwner(trx, competition.id, owner, now, { locking: !freshSnapshot });
  assertUnderCap(cap, has, adding);
}

/** The live tickets of a competition among these numbers, by number. */
const liveAmong = (db: Knex, competitionId: number, numbers: number[], now: number) =>
  liveTickets(db, competitionId, now).whereIn('number', numbers).orderBy('number');

/** Which of these numbers are held or sold; for a batch. A plain read unless `locking`. */
export const takenRead = (
  db: Knex,
  competitionId: number,
  numbers: number[],
  now: number,
  { locking = false }: { locking?: boolean } = {},
): Batched<number[]> =>
  read(
    shareRows(db, 'ticket', liveAmong(db, competitionId, numbers, now).select('number'), locking),
    (rows: { number: number }[]) => rows.map((r) => r.number),
  );

/**
 * Which of these numbers are held or sold right now: a locking read sees the latest commits; a
 * plain one (`locking: false`) what the transaction's snapshot saw.
 */
export async function takenAmong(
  db: Knex,
  competitionId: number,
  numbers: number[],
  now: number,
  { locking = true }: { locking?: boolean } = {},
) {
  const [found] = await runBatch(db, takenRead(db, competitionId, numbers, now, { locking }));
  return found;
}

const TAKEN_MESSAGE = 'Sorry, some of those numbers have just been taken by someone else.';

/** The 409 of chosen numbers someone else holds or bought, with the ones taken. */
export const numbersTaken = (taken: number[]) => conflict(TAKEN_MESSAGE, { taken }, ERROR_CODES.numberTaken);

/**
 * The chosen numbers held or sold right now (a plain read, outside any transaction) when someone
 * else has at least one of them; none when they are free or all the owner's own hold.
 */
export async function takenFromOthers(
  db: Knex,
  competitionId: number,
  numbers: number[],
  owner: CartOwner,
  now: number,
): Promise<number[]> {
  const rows = (await liveAmong(db, competitionId, numbers, now).select(
    'number',
    'guestId',
    'userId',
  )) as Array<{ number: number; guestId: string | null; userId: number | null }>;
  return rows.some((r) => !isOwnedBy(owner, r)) ? rows.map((r) => r.number) : [];
}

export async function findOwnItem(trx: Knex.Transaction, owner: CartOwner, itemId: number) {
  const item = (await CartItem.query(trx).modify(ownedBy(owner)).findById(itemId)) as CartItem | undefined;
  if (!item) throw notFound('Cart item not found');
  return item;
}

export const sameNumbers = (a: number[], sortedB: number[]) =>
  a.length === sortedB.length && [...a].sort((x, y) => x - y).every((n, i) => n === sortedB[i]);
