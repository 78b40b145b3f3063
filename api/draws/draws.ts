import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { type AdminDrawStatus, computeDraw } from '../../contract/draw';
import { isUniqueViolation, lockForUpdate } from '../../db/dialect';
import { Competition } from '../../db/models';
import { type Actor, writeAudit } from '../platform/auditLog';
import { type DrawProps, sendDrawResult, sendWinner } from '../platform/email/templates/draws';
import { conflict, HttpError, notFound } from '../platform/errors';
import type { EventBus } from '../platform/events';
import type { Mailer } from '../platform/mailer';
import { inUnitOfWork, type UnitOfWork } from '../platform/unitOfWork';
import { bumpVersion } from '../tickets/competitionVersions';
import type { DrawRecord } from './presenter';

// The draw (docs/draws.md): closing, drawing exactly once, and telling everyone after COMMIT.
//
//   active --endDate passes (job) | auto-win sells out (fulfilment)--> ended (closed)
//   ended  --'Draw now' | auto-win at once | DRAW_AUTO_AFTER_SECONDS after endDate--> drawn
//
// Exactly once: the draw locks the competition row (which every sale also locks), re-checks
// competitions.drawn_at, and inserts into `draws`, whose UNIQUE (competition_id) refuses a second
// row whatever the interleaving of processes.

export interface DrawDeps {
  db: Knex;
  events: EventBus;
  logger: Logger;
  mailer: Mailer;
}

export type DrawnBy = { kind: 'admin'; actor: Actor } | { kind: 'auto' };

export const ALREADY_DRAWN = 'This competition has already been drawn.';
export const NO_SALES = 'No tickets were sold in this competition, so there is nothing to draw.';
const NOT_FOUND = 'Competition not found';

const londonTime = (ms: number) =>
  new Intl.DateTimeFormat('en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'Europe/London',
  }).format(new Date(Number(ms)));

const stillOpen = (endDate: number) =>
  `This competition is still open until ${londonTime(endDate)} (UK time). It can be drawn once it has closed.`;
const awaitingPayments = (until: number) =>
  `Numbers held before the close can still be paid for until ${londonTime(until)} (UK time). ` +
  'Draw after that, so that every paid entry is in the draw.';

/** When the last hold that could still be paid for runs out (null: none). After close, no new holds are made. */
async function liveHoldsUntil(db: Knex, competitionId: number, now: number): Promise<number | null> {
  const row = (await db('tickets')
    .where({ competitionId, status: 'reserved' })
    .where('expiresAt', '>', now)
    .max({ until: 'expiresAt' })
    .first()) as { until: number | null } | undefined;
  return row?.until ? Number(row.until) : null;
}

const isClosed = (c: Pick<Competition, 'status' | 'endDate'>, now: number) =>
  c.status === 'ended' || Number(c.endDate) <= now;

const drawRecords = (db: Knex) =>
  db('draws as d')
    .join('competitions as c', 'c.id', 'd.competitionId')
    .leftJoin('users as u', 'u.id', 'd.winnerUserId')
    .select(
      'd.competitionId',
      'd.seed',
      'd.entriesHash',
      'd.winningNumber',
      'd.winnerUserId',
      'd.winnerOrderId',
      'd.drawnAt',
      'd.drawnBy',
      'd.winnerNotifiedAt',
      'd.prizeDeliveredAt',
      'c.title',
      'c.image',
      'u.firstName',
      'u.lastName',
      'u.username',
      'u.email',
      'u.ageVerifiedAt',
      'u.deletedAt',
    );

export async function loadDrawRecord(db: Knex, competitionId: number): Promise<DrawRecord | undefined> {
  return (await drawRecords(db).where('d.competitionId', competitionId).first()) as DrawRecord | undefined;
}

export async function listDrawRecords(db: Knex, limit = 200): Promise<DrawRecord[]> {
  return (await drawRecords(db)
    .whereNot('c.status', 'archived')
    .orderBy([
      { column: 'd.drawnAt', order: 'desc' },
      { column: 'd.id', order: 'desc' },
    ])
    .limit(limit)) as DrawRecord[];
}

/** The sold numbers the draw was made from (ascending), for anyone to recompute it. */
export async function drawEntries(db: Knex, competitionId: number) {
  const row = (await db('draws as d')
    .join('competitions as c', 'c.id', 'd.competitionId')
    .where('d.competitionId', competitionId)
    .whereNot('c.status', 'archived')
    .first('d.entriesHash', 'd.entries')) as { entriesHash: string; entries: string } | undefined;
  if (!row) throw notFound('This competition has not been drawn yet.');
  return { competitionId, entriesHash: row.entriesHash, numbers: JSON.parse(row.entries) as number[] };
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

/**
 * Draws the competition now: 404 unknown or archived; 409 already drawn, still open, holds that
 * may still be paid for, or no sales. Safe to call concurrently from any number of processes.
 */
export async function drawCompetition(
  deps: DrawDeps,
  competitionId: number,
  by: DrawnBy,
  now = Date.now(),
): Promise<DrawRecord> {
  const record = await inUnitOfWork(deps, async (uow) => {
    const { trx } = uow;
    // The first statement is a locking read: on MySQL every later read sees what the sales that
    // held this lock before us committed, and sales after us wait and then find drawn_at set.
    const c = (await lockForUpdate(trx, Competition.query(trx).findById(competitionId))) as
      | Competition
      | undefined;
    if (!c || c.status === 'archived') throw notFound(NOT_FOUND);
    if (c.drawnAt) throw conflict(ALREADY_DRAWN);
    if (!isClosed(c, now)) throw conflict(stillOpen(c.endDate));
    if (c.ticketsSold < c.totalTickets) {
      const until = await liveHoldsUntil(trx, competitionId, now);
      if (until)
        throw conflict(awaitingPayments(until), { paymentsOpenUntil: new Date(until).toISOString() });
    }
    // Cancelled orders' tickets were deleted, so sold rows are exactly the entries.
    const sold = (await trx('tickets')
      .where({ competitionId, status: 'sold' })
      .orderBy('number', 'asc')
      .select('number', 'userId', 'orderId')) as Array<{
      number: number;
      userId: number | null;
      orderId: number | null;
    }>;
    if (!sold.length) throw conflict(NO_SALES);
    if (!c.drawSeed || !c.drawCommitment) throw new Error(`competition ${competitionId} has no draw seed`);
    const numbers = sold.map((r) => Number(r.number));
    const result = await computeDraw(c.drawSeed, numbers);
    const winner = sold[result.index]!;
    try {
      await trx('draws').insert({
        competitionId,
        seed: c.drawSeed,
        commitment: c.drawCommitment,
        entriesHash: result.entriesHash,
        entryCount: result.entryCount,
        entries: JSON.stringify(numbers),
        winningIndex: result.index,
        winningNumber: result.winningNumber,
        winnerUserId: winner.userId,
        winnerOrderId: winner.orderId,
        drawnAt: now,
        drawnByUserId: by.kind === 'admin' ? by.actor.id : null,
        drawnBy: by.kind === 'admin' ? by.actor.username : 'auto',
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(ALREADY_DRAWN);
      throw err;
    }
    await trx('competitions')
      .where({ id: competitionId })
      .update({ drawnAt: now, status: 'ended', updatedAt: now });
    if (by.kind === 'admin') {
      await writeAudit(
        trx,
        by.actor,
        'competition.draw',
        { type: 'competition', id: competitionId },
        null,
        { winningNumber: result.winningNumber, entriesHash: result.entriesHash, entries: result.entryCount },
        now,
      );
    }
    const version = await bumpVersion(trx, competitionId);
    const drawn = (await loadDrawRecord(trx, competitionId))!;
    uow.emit('draw.started', { competitionId });
    uow.emit('draw.result', { record: drawn });
    await emitCompetitionUpdated(uow, competitionId, version);
    return drawn;
  });

  deps.logger.info(
    { competitionId, winningNumber: record.winningNumber, by: record.drawnBy },
    'competition drawn',
  );
  // The e-mails are not events: they go once the draw has committed. The entrants' e-mails run
  // in the background, so 'Draw now' does not wait for thousands of messages.
  await notifyWinner(deps, record);
  void notifyEntrants(deps, record).catch((err) => {
    deps.logger.error({ err, competitionId }, 'draw result e-mails failed');
  });
  return record;
}

const drawProps = (record: DrawRecord, name: string): DrawProps => ({
  name,
  title: record.title,
  winningNumber: Number(record.winningNumber),
  drawnAt: Number(record.drawnAt),
  verifyLink: `/competitions/${record.competitionId}#verify-draw`,
});

/** The winner's e-mail. A failure is logged and never undoes the draw. */
async function notifyWinner(deps: DrawDeps, record: DrawRecord) {
  if (!record.email || record.deletedAt || record.winnerNotifiedAt) return;
  try {
    const name = record.firstName?.trim() || record.username || 'there';
    const sent = await sendWinner(
      deps.mailer,
      { to: record.email, userId: record.winnerUserId },
      drawProps(record, name),
    );
    await deps
      .db('draws')
      .where({ competitionId: record.competitionId })
      .update({ winnerNotifiedAt: Date.now() });
    deps.logger.info({ competitionId: record.competitionId, sent }, 'winner e-mail sent');
  } catch (err) {
    deps.logger.error({ err, competitionId: record.competitionId }, 'winner e-mail failed');
  }
}

/**
 * 'The draw for X has been made' to every other entrant (the winner has their own e-mail), with
 * their numbers and the link to verify the draw. One failure is logged and the rest still go.
 */
export async function notifyEntrants(deps: DrawDeps, record: DrawRecord) {
  const rows = (await deps
    .db('tickets as t')
    .join('users as u', 'u.id', 't.userId')
    .where({ 't.competitionId': record.competitionId, 't.status': 'sold' })
    .whereNull('u.deletedAt')
    .whereNot('u.id', record.winnerUserId ?? 0)
    .orderBy([{ column: 'u.id' }, { column: 't.number' }])
    .select('u.id', 'u.email', 'u.firstName', 'u.username', 't.number')) as Array<{
    id: number;
    email: string;
    firstName: string | null;
    username: string;
    number: number;
  }>;
  const entrants = new Map<number, { email: string; name: string; numbers: number[] }>();
  for (const r of rows) {
    const e = entrants.get(r.id) ?? { email: r.email, name: r.firstName?.trim() || r.username, numbers: [] };
    e.numbers.push(Number(r.number));
    entrants.set(r.id, e);
  }
  let failed = 0;
  for (const [userId, e] of entrants) {
    await sendDrawResult(
      deps.mailer,
      { to: e.email, userId },
      { ...drawProps(record, e.name), yourNumbers: e.numbers },
    ).catch((err) => {
      failed += 1;
      deps.logger.error({ err, competitionId: record.competitionId, userId }, 'draw result e-mail failed');
    });
  }
  deps.logger.info(
    { competitionId: record.competitionId, entrants: entrants.size, failed },
    'draw result e-mails sent',
  );
}

/**
 * An auto-win competition sold its last ticket (the sale has committed): draw it now. Errors are
 * logged, not thrown: the sale stands, and the draw job picks the competition up again.
 */
export async function drawAfterSellOut(deps: DrawDeps, competitionId: number): Promise<void> {
  try {
    await drawCompetition(deps, competitionId, { kind: 'auto' });
  } catch (err) {
    if (err instanceof HttpError && err.status === 409) return; // another process drew it
    deps.logger.error({ err, competitionId }, 'automatic draw after sell-out failed; the job retries');
  }
}

/**
 * Closes every active competition whose end date has passed (status 'ended', version bumped,
 * `competition:updated` once). A conditional UPDATE: with several processes only one closes each.
 */
export async function closeDueCompetitions(deps: DrawDeps, now = Date.now()): Promise<number[]> {
  const due = (await deps
    .db('competitions')
    .where('status', 'active')
    .where('endDate', '<=', now)
    .select('id')) as Array<{ id: number }>;
  const closed: number[] = [];
  for (const { id } of due) {
    const closedNow = await inUnitOfWork(deps, async (uow) => {
      const changed = await uow
        .trx('competitions')
        .where({ id, status: 'active' })
        .where('endDate', '<=', now)
        .update({ status: 'ended', updatedAt: now });
      if (!changed) return false;
      await emitCompetitionUpdated(uow, id, await bumpVersion(uow.trx, id));
      return true;
    });
    if (closedNow) closed.push(id);
  }
  return closed;
}

/**
 * Draws closed competitions that are due: auto-win ones at once, live-draw ones
 * `autoAfterSeconds` after their end date (0: never, an admin draws them). Not ready yet (holds
 * still payable) or drawn meanwhile by another process: skipped until the next run.
 */
export async function drawDueCompetitions(
  deps: DrawDeps,
  autoAfterSeconds: number,
  now = Date.now(),
): Promise<number[]> {
  const candidates = (await deps
    .db('competitions')
    .where('status', 'ended')
    .whereNull('drawnAt')
    .where('ticketsSold', '>', 0)
    .select('id', 'autoWin', 'endDate')) as Array<{ id: number; autoWin: number | boolean; endDate: number }>;
  const drawn: number[] = [];
  for (const c of candidates) {
    const due =
      Boolean(c.autoWin) || (autoAfterSeconds > 0 && Number(c.endDate) + autoAfterSeconds * 1000 <= now);
    if (!due) continue;
    try {
      await drawCompetition(deps, c.id, { kind: 'auto' }, now);
      drawn.push(c.id);
    } catch (err) {
      // 409: not ready yet, or another process drew it. Anything else must not stop the others.
      if (!(err instanceof HttpError && err.status === 409)) {
        deps.logger.error({ err, competitionId: c.id }, 'automatic draw failed');
      }
    }
  }
  return drawn;
}

/** Where the draw of a competition stands, as the admin's competition detail shows it. */
export async function adminDrawStatus(
  db: Knex,
  c: Competition,
  autoAfterSeconds: number,
  now = Date.now(),
): Promise<{ drawStatus: AdminDrawStatus; record: DrawRecord | null }> {
  const record = c.drawnAt ? await loadDrawRecord(db, c.id) : undefined;
  if (record) {
    return {
      drawStatus: {
        state: 'drawn',
        message: `Drawn on ${londonTime(record.drawnAt)} (UK time): winning number ${record.winningNumber}.`,
      },
      record,
    };
  }
  const automatic = c.autoWin
    ? 'It is drawn automatically when its last ticket sells or when it closes.'
    : autoAfterSeconds > 0
      ? `If nobody presses Draw now, it is drawn automatically ${londonTime(Number(c.endDate) + autoAfterSeconds * 1000)} (UK time).`
      : 'It is drawn when an admin presses Draw now.';
  let drawStatus: AdminDrawStatus;
  // The same order of checks as drawCompetition: a payment in flight may still bring a first sale.
  const until = c.ticketsSold < c.totalTickets ? await liveHoldsUntil(db, c.id, now) : null;
  if (!isClosed(c, now)) drawStatus = { state: 'open', message: `${stillOpen(c.endDate)} ${automatic}` };
  else if (until) drawStatus = { state: 'awaiting_payments', message: awaitingPayments(until) };
  else if (c.ticketsSold === 0) drawStatus = { state: 'no_sales', message: NO_SALES };
  else {
    drawStatus = {
      state: 'ready',
      message: `Closed with ${c.ticketsSold} tickets sold: ready to draw. ${automatic}`,
    };
  }
  return { drawStatus, record: null };
}
