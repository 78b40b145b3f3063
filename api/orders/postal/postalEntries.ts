import type { Knex } from 'knex';
import { formatOrderNumber } from '../../../contract/checkout';
import { ERROR_CODES } from '../../../contract/errors';
import { formatDayAndTime } from '../../../contract/londonTime';
import {
  addressKeyOf,
  emailKeyOf,
  type PostalEntryInput,
  WRONG_POSTAL_ANSWER,
} from '../../../contract/postal';
import { lockRows } from '../../../db/locks';
import { Competition, type InstantWin } from '../../../db/models';
import {
  type MailboxKeyOf,
  mailboxKeyer,
  registeredBreakEnd,
} from '../../accounts/protection/exclusionRegister';
import { postcardOwnerName } from '../../catalogue/presenter';
import { poolOf, sameAnswer } from '../../catalogue/skill/pool';
import type { DrawDeps } from '../../draws/drawable';
import { drawAfterSellOut } from '../../draws/draws';
import { type Actor, writeAudit } from '../../platform/auditLog';
import { badRequest, conflict, notFound } from '../../platform/errors';
import { inUnitOfWork, RetryTransaction, type UnitOfWork } from '../../platform/unitOfWork';
import { recordTicketChange } from '../../tickets/competitionVersions';
import { selfExcludedUntil } from '../../tickets/holdChecks';
import { pickAvailable, unavailableNumbers } from '../../tickets/numberPicker';
import { sellNumbers } from '../../tickets/selling/sellNumbers';
import { awardInstantWins, emitInstantWins, oweInstantWinEmails, winnerNameOf } from '../instantWins/awards';
import { enforcePostalCap } from './postalCap';
import type { PostalEntryRow } from './presenter';

// The free postal entry route (docs/product.md#free-postal-entry): an admin records a postcard
// and it gets a random free number, sold exactly as a bought ticket is sold, in one unit of work:
//
//   available --postal entry--> sold (a £0 'postal' order, the account if one was given)
//
// The ticket row carries the same UNIQUE (competition_id, number) key as every sale, so a postcard
// racing buyers can never share a number; a collision reruns the unit with a fresh read. The
// sale counts in ticketsSold (and so closes an auto-win competition on its last number), writes
// the number's history, the audit row and, with an account, its My Entries row; after COMMIT
// watchers get tickets:purchased and admins the order, as for any sale.

/** What recording a postcard needs: the draw's dependencies and the exclusion register's key. */
export type PostalDeps = DrawDeps & { config: { exclusionKey: string } };

export const POSTAL_CLOSED_MESSAGE = 'This competition is closed: postal entries can no longer be added.';
export const POSTAL_SOLD_OUT_MESSAGE = 'Every number in this competition has been taken.';

/**
 * A free number, with the id of someone's expired hold on it to delete (an expired hold blocks
 * nobody).
 */
async function takeFreeNumber(trx: Knex.Transaction, competitionId: number, total: number, now: number) {
  const taken = await unavailableNumbers(trx, competitionId, now);
  if (taken.size >= total) throw conflict(POSTAL_SOLD_OUT_MESSAGE, undefined, ERROR_CODES.notEnoughTickets);
  const [number] = pickAvailable(total, taken, 1) as [number];
  const stale = (await lockRows(
    trx,
    'ticket',
    trx('tickets').where({ competitionId, number }).first('id', 'status', 'expiresAt'),
  )) as { id: number; status: string; expiresAt: number | null } | undefined;
  // Sold or held a moment ago by a transaction committed after our read: pick again afresh.
  if (stale && (stale.status !== 'reserved' || Number(stale.expiresAt) > now)) throw new RetryTransaction();
  return { number, staleRowIds: stale ? [stale.id] : [] };
}

/** The £0 order the ticket is sold on: it records the sale as every ticket's order does. */
async function insertPostalOrder(
  trx: Knex.Transaction,
  competition: Competition,
  input: PostalEntryInput,
  number: number,
  now: number,
) {
  const [orderId] = await trx('orders').insert({
    userId: input.userId ?? null,
    guestId: null,
    paymentProvider: 'postal',
    subtotalPence: 0,
    creditAppliedPence: 0,
    totalPence: 0,
    currency: 'gbp',
    status: 'completed',
    paidAt: now,
    notice: `Free postal entry received ${input.receivedAt.slice(0, 10)}.`,
    createdAt: now,
    updatedAt: now,
  });
  const id = Number(orderId);
  await trx('orderItems').insert({
    orderId: id,
    competitionId: competition.id,
    title: competition.title,
    ticketPricePence: 0,
    quantity: 1,
    paidPence: 0,
    selectedNumbers: JSON.stringify([number]),
    createdAt: now,
  });
  return id;
}

/** Refuses an unknown or deleted account before anything is locked after it. */
async function lockAccount(trx: Knex.Transaction, userId: number) {
  const user = (await lockRows(trx, 'user', trx('users').where({ id: userId }).first('id', 'deletedAt'))) as
    | { id: number; deletedAt: number | null }
    | undefined;
  if (!user || user.deletedAt) {
    throw badRequest(`There is no customer account with id ${userId}.`, {
      fields: { userId: 'No such customer account' },
    });
  }
}

/**
 * Locks the account (if any), then the competition (db/locks.ts), and refuses a postcard that may
 * not enter.
 */
async function lockOpenCompetition(
  trx: Knex.Transaction,
  competitionId: number,
  entrant: { userId: number | null; mailboxKey: string },
  now: number,
): Promise<Competition> {
  const { userId } = entrant;
  if (userId) await lockAccount(trx, userId);
  // A break (self-exclusion) stops every entry route, the free one included: the account's, and
  // the register's for the postcard's mailbox, with or without an account id.
  const until = Math.max(
    (userId ? await selfExcludedUntil(trx, userId, now) : null) ?? 0,
    (await registeredBreakEnd(trx, entrant.mailboxKey, now)) ?? 0,
  );
  if (until > now) {
    throw conflict(
      `This customer is taking a break until ${formatDayAndTime(until)}: no entries until then.`,
      { selfExcludedUntil: new Date(until).toISOString() },
      ERROR_CODES.selfExcluded,
    );
  }
  const competition = (await lockRows(trx, 'competition', Competition.query(trx).findById(competitionId))) as
    | Competition
    | undefined;
  if (!competition || competition.status === 'archived') throw notFound('Competition not found');
  // A fixed beacon round freezes the entries, even if an admin reopens the competition.
  const frozen = competition.drawnAt || competition.drawBeaconRound != null;
  if (competition.status !== 'active' || competition.endDate <= now || frozen)
    throw conflict(POSTAL_CLOSED_MESSAGE, undefined, ERROR_CODES.closed);
  return competition;
}

/**
 * The postcard's answer must be the correct answer to one of the competition's questions (each
 * visitor is shown one of the pool at random); a wrong one makes the entry invalid (the Terms).
 */
function assertCorrectAnswer(competition: Competition, answer: string) {
  if (!poolOf(competition).some((q) => sameAnswer(answer, q.answer)))
    throw badRequest(WRONG_POSTAL_ANSWER, { fields: { answer: 'Not the correct answer' } });
}

/** The postcard's own rows: the postal entry, and with an account its My Entries row. */
async function insertPostalEntry(
  trx: Knex.Transaction,
  actor: Actor,
  input: PostalEntryInput,
  sale: { competitionId: number; orderId: number; number: number },
  now: number,
): Promise<number> {
  const userId = input.userId ?? null;
  const [entryId] = await trx('postalEntries').insert({
    ...sale,
    userId,
    name: input.name,
    email: input.email,
    emailKey: emailKeyOf(input.email),
    address: input.address,
    postcode: input.postcode,
    addressKey: addressKeyOf(input.address, input.postcode),
    receivedAt: Date.parse(input.receivedAt),
    answer: input.answer,
    recordedByUserId: actor.id,
    createdAt: now,
  });
  if (userId) {
    await trx('userEntries').insert({
      userId,
      competitionId: sale.competitionId,
      orderId: sale.orderId,
      ticketNumbers: JSON.stringify([sale.number]),
      purchasedAt: now,
    });
  }
  return Number(entryId);
}

/** The audit row of a postcard, with any instant win its number won. */
function postalAudit(
  input: PostalEntryInput,
  entry: { postalEntryId: number; number: number; orderId: number },
  instantWins: InstantWin[],
) {
  const userId = input.userId ?? null;
  return {
    ...entry,
    userId,
    name: input.name,
    receivedAt: input.receivedAt,
    answer: input.answer,
    ...(instantWins.length
      ? {
          instantWins: instantWins.map((w) => ({
            instantWinId: w.id,
            title: w.title,
            kind: w.kind,
            creditPaid: w.kind === 'credit' && userId !== null,
            ...(w.kind === 'credit' && userId === null ? { paidAsCash: true } : {}),
          })),
        }
      : {}),
  };
}

/** The postcard's unit of work: a free number sold on a £0 order, its entry, audit and events. */
async function recordPostcard(
  uow: UnitOfWork,
  keyOf: MailboxKeyOf,
  actor: Actor,
  competitionId: number,
  input: PostalEntryInput,
  now: number,
) {
  const { trx } = uow;
  const userId = input.userId ?? null;
  const mailboxKey = keyOf(input.email);
  const competition = await lockOpenCompetition(trx, competitionId, { userId, mailboxKey }, now);
  assertCorrectAnswer(competition, input.answer);
  await enforcePostalCap(trx, competition, input, now);

  const { number, staleRowIds } = await takeFreeNumber(trx, competitionId, competition.totalTickets, now);
  const orderId = await insertPostalOrder(trx, competition, input, number, now);
  const sold = await sellNumbers(
    trx,
    {
      competition,
      buyer: { orderId, userId, guestId: null },
      staleRowIds,
      free: [number],
      note: `postal entry, ${formatOrderNumber(orderId)}`,
    },
    now,
  );
  const entryId = await insertPostalEntry(trx, actor, input, { competitionId, orderId, number }, now);
  // A postcard's number wins an instant prize as a bought one does. Without an account its winner
  // claims with an e-mailed link, and credit is paid as cash (docs/draws.md#7-claiming-a-prize).
  const winnerName = async () => (userId ? winnerNameOf(trx, userId) : postcardOwnerName(input.name));
  const claimLinks = new Map<number, string>();
  const instantWins = await awardInstantWins(
    trx,
    { competitionId, numbers: [number], userId, orderId, winnerName, postalEntryId: entryId, claimLinks },
    now,
  );
  const audit = postalAudit(input, { postalEntryId: entryId, number, orderId }, instantWins);
  await writeAudit(
    trx,
    actor,
    'competition.postal_entry',
    { type: 'competition', id: competitionId },
    null,
    audit,
    now,
  );

  await recordTicketChange(uow, sold);
  emitInstantWins(uow, instantWins);
  uow.emit('order.changed', { orderId, change: 'paid' });
  // The winner's e-mail is owed with the win: the account's address, else the postcard's.
  const mail = instantWins.length ? await oweInstantWinEmails(trx, orderId, now, claimLinks) : [];
  return { entryId, closes: sold.closed, orderId, mail };
}

/**
 * Records one postcard: 404 unknown competition, 409 closed, sold out or over the per-person cap,
 * 400 unknown account. Returns the entry with its number.
 */
export async function addPostalEntry(
  deps: PostalDeps,
  actor: Actor,
  competitionId: number,
  input: PostalEntryInput,
  now = Date.now(),
): Promise<PostalEntryRow> {
  const keyOf = mailboxKeyer(deps.config.exclusionKey);
  const done = await inUnitOfWork(deps, (uow) =>
    recordPostcard(uow, keyOf, actor, competitionId, input, now),
  );
  await deps.mailer.outbox.deliver(done.mail);
  // Its last number went by post: draw now, exactly as after a sale that sells out.
  if (done.closes) await drawAfterSellOut(deps, competitionId);
  const [entry] = await postalEntryRows(deps.db, competitionId, done.entryId);
  return entry!;
}

function postalEntryRows(db: Knex, competitionId: number, id?: number): Promise<PostalEntryRow[]> {
  const q = db('postalEntries as p')
    .join('orders as o', 'o.id', 'p.orderId')
    .leftJoin('users as u', 'u.id', 'p.userId')
    .where('p.competitionId', competitionId)
    .orderBy('p.id', 'desc')
    .select(
      'p.id',
      'p.number',
      'p.name',
      'p.email',
      'p.address',
      'p.postcode',
      'p.receivedAt',
      'p.answer',
      'p.userId',
      'u.username',
      'p.orderId',
      'o.status as orderStatus',
      'p.createdAt',
    );
  if (id !== undefined) q.where('p.id', id);
  return q;
}

/** A competition's postal entries, newest first (404 for an unknown competition). */
export async function listPostalEntries(db: Knex, competitionId: number): Promise<PostalEntryRow[]> {
  const exists = await db('competitions').where({ id: competitionId }).first('id');
  if (!exists) throw notFound('Competition not found');
  return postalEntryRows(db, competitionId);
}
