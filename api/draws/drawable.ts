import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { lockRows } from '../../db/locks';
import { Competition } from '../../db/models';
import type { Actor } from '../platform/auditLog';
import { conflict, notFound } from '../platform/errors';
import type { EventBus } from '../platform/events';
import type { FaultInjector } from '../platform/faults';
import type { Mailer } from '../platform/mailer';
import type { UnitOfWork } from '../platform/unitOfWork';
import type { DrawBeacon } from './beacon/drawBeacon';

// What every step of a draw shares: its dependencies, and whether a competition may be drawn now
// (the refusals, answered under the competition lock, and their messages).

export interface DrawDeps {
  db: Knex;
  events: EventBus;
  logger: Logger;
  mailer: Mailer;
  beacon: DrawBeacon;
  /** FAULT_INJECTION's crash points (the chaos test's `after-draw-committed`). */
  faults?: FaultInjector;
}

export type DrawnBy = { kind: 'admin'; actor: Actor } | { kind: 'auto' };

export const ALREADY_DRAWN = 'This competition has already been drawn.';
export const NO_SALES = 'No tickets were sold in this competition, so there is nothing to draw.';
const NOT_FOUND = 'Competition not found';

export const londonTime = (ms: number, timeStyle: 'short' | 'medium' = 'short') =>
  new Intl.DateTimeFormat('en-GB', {
    dateStyle: 'medium',
    timeStyle,
    timeZone: 'Europe/London',
  }).format(new Date(Number(ms)));

export const stillOpen = (endDate: number) =>
  `This competition is still open until ${londonTime(endDate)} (UK time). It can be drawn once it has closed.`;
export const awaitingPayments = (until: number) =>
  `Numbers held before the close can still be paid for until ${londonTime(until)} (UK time). ` +
  'Draw after that, so that every paid entry is in the draw.';

/** When the last hold that could still be paid for runs out (null: none). After close, no new holds are made. */
export async function liveHoldsUntil(db: Knex, competitionId: number, now: number): Promise<number | null> {
  const row = (await db('tickets')
    .where({ competitionId, status: 'reserved' })
    .where('expiresAt', '>', now)
    .max({ until: 'expiresAt' })
    .first()) as { until: number | null } | undefined;
  return row?.until ? Number(row.until) : null;
}

export const isClosed = (c: Pick<Competition, 'status' | 'endDate'>, now: number) =>
  c.status === 'ended' || Number(c.endDate) <= now;

export const lockedCompetition = async (trx: Knex.Transaction, competitionId: number) =>
  (await lockRows(trx, 'competition', Competition.query(trx).findById(competitionId))) as
    | Competition
    | undefined;

const CANCELLED_NO_DRAW = 'This competition has been cancelled and refunded: there is no draw.';
const SHORT_OF_MINIMUM =
  'This competition has not reached its minimum: at its end date it is extended or cancelled, not drawn.';

/**
 * The refusals a draw (and fixing its round) answers, under the competition lock: 404 unknown or
 * archived; 409 drawn, still open, holds that may still be paid for, or no sales. Past them the
 * entries are final: no new holds after the close, no payable hold left.
 */
export async function assertDrawable(
  trx: Knex.Transaction,
  c: Competition | undefined,
  now: number,
): Promise<Competition> {
  if (!c || c.status === 'archived') throw notFound(NOT_FOUND);
  if (c.drawnAt) throw conflict(ALREADY_DRAWN);
  // Cancelled and refunded, or short of its minimum and about to be extended or cancelled.
  if (c.status === 'cancelled') throw conflict(CANCELLED_NO_DRAW);
  if (c.minTicketsSold != null && Number(c.ticketsSold) < Number(c.minTicketsSold))
    throw conflict(SHORT_OF_MINIMUM);
  if (!isClosed(c, now)) throw conflict(stillOpen(c.endDate));
  if (c.ticketsSold < c.totalTickets) {
    const until = await liveHoldsUntil(trx, c.id, now);
    if (until) throw conflict(awaitingPayments(until), { paymentsOpenUntil: new Date(until).toISOString() });
  }
  const sold = (await trx('tickets')
    .where({ competitionId: c.id, status: 'sold' })
    .count({ n: '*' })
    .first()) as {
    n: number | string;
  };
  if (!Number(sold.n)) throw conflict(NO_SALES);
  return c;
}

/**
 * Records a change of the competition row (close, draw) with its new version, as the row stands
 * at the end of this unit: watchers hear of it after COMMIT.
 */
export async function emitCompetitionUpdated(uow: UnitOfWork, competitionId: number, version: number) {
  const fresh = (await Competition.query(uow.trx).findById(competitionId)) as Competition | undefined;
  if (!fresh) return;
  uow.emit('competition.updated', { competition: fresh, version });
}
