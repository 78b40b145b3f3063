import type { Knex } from 'knex';
import { formatOrderNumber } from '../../../contract/checkout';
import { ERROR_CODES } from '../../../contract/errors';
import { formatDayAndTime } from '../../../contract/londonTime';
import { addressKeyOf, emailKeyOf, type PostalEntryInput } from '../../../contract/postal';
import { isUniqueViolation, lockForUpdate } from '../../../db/dialect';
import { Competition } from '../../../db/models';
import { postcardOwnerName } from '../../catalogue/presenter';
import { type DrawDeps, emitCompetitionUpdated } from '../../draws/drawable';
import { drawAfterSellOut } from '../../draws/draws';
import { type Actor, writeAudit } from '../../platform/auditLog';
import { badRequest, conflict, notFound } from '../../platform/errors';
import { inUnitOfWork, RetryTransaction } from '../../platform/unitOfWork';
import { bumpVersionNow } from '../../tickets/competitionVersions';
import { recordTicketEvents } from '../../tickets/history/ticketHistory';
import { selfExcludedUntil } from '../../tickets/holdChecks';
import { pickAvailable, unavailableNumbers } from '../../tickets/numberPicker';
import { awardInstantWins, emitInstantWins, sendInstantWinEmails, winnerNameOf } from '../instantWins/awards';
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

export const POSTAL_CLOSED_MESSAGE = 'This competition is closed: postal entries can no longer be added.';
export const POSTAL_SOLD_OUT_MESSAGE = 'Every number in this competition has been taken.';

/** A free number, taken from someone's expired hold if need be (an expired hold blocks nobody). */
async function takeFreeNumber(trx: Knex.Transaction, competitionId: number, total: number, now: number) {
  const taken = await unavailableNumbers(trx, competitionId, now);
  if (taken.size >= total) throw conflict(POSTAL_SOLD_OUT_MESSAGE, undefined, ERROR_CODES.notEnoughTickets);
  const [number] = pickAvailable(total, taken, 1) as [number];
  const stale = (await lockForUpdate(
    trx,
    trx('tickets').where({ competitionId, number }).first('id', 'status', 'expiresAt'),
  )) as { id: number; status: string; expiresAt: number | null } | undefined;
  if (stale) {
    // Sold or held a moment ago by a transaction committed after our read: pick again afresh.
    if (stale.status !== 'reserved' || Number(stale.expiresAt) > now) throw new RetryTransaction();
    await trx('tickets').where({ id: stale.id }).delete();
  }
  return number;
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
    selectedNumbers: JSON.stringify([number]),
    createdAt: now,
  });
  return id;
}

/** Sells the number on the order; true when it was an auto-win competition's last (it closes). */
async function sellPostalTicket(
  trx: Knex.Transaction,
  competition: Competition,
  userId: number | null,
  orderId: number,
  number: number,
  now: number,
): Promise<boolean> {
  try {
    await trx('tickets').insert({
      competitionId: competition.id,
      number,
      status: 'sold',
      guestId: null,
      userId,
      orderId,
      isClaimed: true,
      createdAt: now,
      updatedAt: now,
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new RetryTransaction();
    throw err;
  }
  await trx('competitions').where({ id: competition.id }).increment('ticketsSold', 1);
  if (!competition.autoWin) return false;
  const closed = await trx('competitions')
    .where({ id: competition.id, status: 'active' })
    .where('ticketsSold', '>=', competition.totalTickets)
    .update({ status: 'ended', updatedAt: now });
  return closed > 0;
}

/** Refuses an unknown or deleted account before anything is locked after it. */
async function lockAccount(trx: Knex.Transaction, userId: number) {
  const user = (await lockForUpdate(trx, trx('users').where({ id: userId }).first('id', 'deletedAt'))) as
    | { id: number; deletedAt: number | null }
    | undefined;
  if (!user || user.deletedAt) {
    throw badRequest(`There is no customer account with id ${userId}.`, {
      fields: { userId: 'No such customer account' },
    });
  }
}

/**
 * Records one postcard: 404 unknown competition, 409 closed, sold out or over the per-person cap,
 * 400 unknown account. Returns the entry with its number.
 */
export async function addPostalEntry(
  deps: DrawDeps,
  actor: Actor,
  competitionId: number,
  input: PostalEntryInput,
  now = Date.now(),
): Promise<PostalEntryRow> {
  const userId = input.userId ?? null;
  const receivedAt = Date.parse(input.receivedAt);
  const done = await inUnitOfWork(deps, async (uow) => {
    const { trx } = uow;
    // Lock order as fulfilment: user -> competition -> tickets -> versions.
    if (userId) {
      await lockAccount(trx, userId);
      // A break (self-exclusion) stops every entry route, the free one included.
      const until = await selfExcludedUntil(trx, userId, now);
      if (until !== null) {
        throw conflict(
          `This customer is taking a break until ${formatDayAndTime(until)}: no entries until then.`,
          { selfExcludedUntil: new Date(until).toISOString() },
          ERROR_CODES.selfExcluded,
        );
      }
    }
    const competition = (await lockForUpdate(trx, Competition.query(trx).findById(competitionId))) as
      | Competition
      | undefined;
    if (!competition || competition.status === 'archived') throw notFound('Competition not found');
    // A fixed beacon round freezes the entries, even if an admin reopens the competition.
    const frozen = competition.drawnAt || competition.drawBeaconRound != null;
    if (competition.status !== 'active' || competition.endDate <= now || frozen)
      throw conflict(POSTAL_CLOSED_MESSAGE, undefined, ERROR_CODES.closed);
    await enforcePostalCap(trx, competition, input, now);

    const number = await takeFreeNumber(trx, competitionId, competition.totalTickets, now);
    const orderId = await insertPostalOrder(trx, competition, input, number, now);
    const closes = await sellPostalTicket(trx, competition, userId, orderId, number, now);
    // A postcard's number wins an instant prize as a bought one does (credit needs an account).
    const winnerName = async () => (userId ? winnerNameOf(trx, userId) : postcardOwnerName(input.name));
    const instantWins = await awardInstantWins(
      trx,
      { competitionId, numbers: [number], userId, orderId, winnerName },
      now,
    );
    const [entryId] = await trx('postalEntries').insert({
      competitionId,
      orderId,
      number,
      userId,
      name: input.name,
      email: input.email,
      emailKey: emailKeyOf(input.email),
      address: input.address,
      postcode: input.postcode,
      addressKey: addressKeyOf(input.address, input.postcode),
      receivedAt,
      recordedByUserId: actor.id,
      createdAt: now,
    });
    if (userId) {
      await trx('userEntries').insert({
        userId,
        competitionId,
        orderId,
        ticketNumbers: JSON.stringify([number]),
        purchasedAt: now,
      });
    }
    await recordTicketEvents(
      trx,
      [{ competitionId, number }],
      'sold',
      { orderId, userId, note: `postal entry, ${formatOrderNumber(orderId)}` },
      now,
    );
    await writeAudit(
      trx,
      actor,
      'competition.postal_entry',
      { type: 'competition', id: competitionId },
      null,
      {
        postalEntryId: Number(entryId),
        number,
        orderId,
        userId,
        name: input.name,
        receivedAt: input.receivedAt,
        ...(instantWins.length
          ? {
              instantWins: instantWins.map((w) => ({
                instantWinId: w.id,
                title: w.title,
                kind: w.kind,
                creditPaid: w.kind === 'credit' && userId !== null,
              })),
            }
          : {}),
      },
      now,
    );

    const version = await bumpVersionNow(trx, competitionId);
    const { ticketsSold } = (await trx('competitions').where({ id: competitionId }).first('ticketsSold')) as {
      ticketsSold: number;
    };
    uow.emit('tickets.purchased', {
      competitionId,
      version,
      numbers: [number],
      ticketsSold: Number(ticketsSold),
    });
    emitInstantWins(uow, instantWins);
    uow.emit('order.changed', { orderId, change: 'paid' });
    // The close is its own change: tickets:purchased at `version`, competition:updated after it.
    if (closes) await emitCompetitionUpdated(uow, competitionId, await bumpVersionNow(trx, competitionId));
    return { entryId: Number(entryId), closes, orderId, won: instantWins.length > 0 };
  });
  if (done.won && userId) await sendInstantWinEmails(deps, done.orderId);
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
