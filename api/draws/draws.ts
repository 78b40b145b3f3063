import type { Knex } from 'knex';
import type { Logger } from 'pino';
import {
  type BeaconRound,
  firstRoundAtOrAfter,
  isIndependentBeacon,
  roundTimeMs,
} from '../../contract/beacon';
import { type AdminDrawStatus, computeDrawPrizes, DRAW_RULE_VERSION } from '../../contract/draw';
import { ERROR_CODES } from '../../contract/errors';
import { mainPrizesOf, ordinal } from '../../contract/prizes';
import { isUniqueViolation, lockForUpdate } from '../../db/dialect';
import { Competition } from '../../db/models';
import { type Actor, writeAudit } from '../platform/auditLog';
import { type DrawProps, sendDrawResult, sendWinner } from '../platform/email/templates/draws';
import { conflict, HttpError, notFound } from '../platform/errors';
import type { EventBus } from '../platform/events';
import type { Mailer } from '../platform/mailer';
import { inUnitOfWork, type UnitOfWork } from '../platform/unitOfWork';
import { bumpVersion } from '../tickets/competitionVersions';
import type { DrawBeacon } from './beacon';
import type { DrawRecord, PrizeRecord } from './presenter';
import {
  insertFurtherPrizes,
  markPrizeNotified,
  prizeLabel,
  WINNER_ACCOUNT_COLUMNS,
  withPrizes,
} from './prizes';

// The draw (docs/draws.md): closing, drawing exactly once, and telling everyone after COMMIT.
//
//   active --endDate passes (job) | auto-win sells out (fulfilment)--> ended (closed)
//   ended  --'Draw now' | auto-win at once | DRAW_AUTO_AFTER_SECONDS after endDate--> round fixed
//   round fixed --the beacon round is out, fetched and verified--> drawn
//
// The round (the first produced DRAW_BEACON_DELAY_SECONDS after the entries became final) is fixed
// and published before it exists, so nobody knows its randomness when the entries are settled.
//
// Exactly once: the draw locks the competition row (which every sale also locks), re-checks
// competitions.drawn_at, and inserts into `draws`, whose UNIQUE (competition_id) refuses a second
// row whatever the interleaving of processes.

export interface DrawDeps {
  db: Knex;
  events: EventBus;
  logger: Logger;
  mailer: Mailer;
  beacon: DrawBeacon;
}

export type DrawnBy = { kind: 'admin'; actor: Actor } | { kind: 'auto' };

export const ALREADY_DRAWN = 'This competition has already been drawn.';
export const NO_SALES = 'No tickets were sold in this competition, so there is nothing to draw.';
const NOT_FOUND = 'Competition not found';
/** A request (Draw now, the job) waits for a round due this soon; a later one is drawn when it is out. */
export const DRAW_WAIT_LIMIT_MS = 10_000;

const londonTime = (ms: number, timeStyle: 'short' | 'medium' = 'short') =>
  new Intl.DateTimeFormat('en-GB', {
    dateStyle: 'medium',
    timeStyle,
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
      'd.version',
      'd.seed',
      'd.entriesHash',
      'd.winningNumber',
      'd.beaconRound',
      'd.beaconRandomness',
      'd.winnerUserId',
      'd.winnerOrderId',
      'd.drawnAt',
      'd.drawnBy',
      'd.winnerNotifiedAt',
      'd.prizeDeliveredAt',
      'd.winnerTown',
      'c.title',
      'c.image',
      'c.mainPrizes',
      'c.prizeValuePence',
      ...WINNER_ACCOUNT_COLUMNS,
    );

export async function loadDrawRecord(db: Knex, competitionId: number): Promise<DrawRecord | undefined> {
  const row = await drawRecords(db).where('d.competitionId', competitionId).first();
  return row ? (await withPrizes(db, [row]))[0] : undefined;
}

export async function listDrawRecords(db: Knex, limit = 200): Promise<DrawRecord[]> {
  return withPrizes(
    db,
    await drawRecords(db)
      .whereNot('c.status', 'archived')
      .orderBy([
        { column: 'd.drawnAt', order: 'desc' },
        { column: 'd.id', order: 'desc' },
      ])
      .limit(limit),
  );
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

/** The beacon round a competition's draw waits for, once fixed. */
export interface FixedRound {
  chain: string;
  publicKey: string;
  round: number;
  dueAt: number;
}

const fixedRoundOf = (c: Competition): FixedRound | null =>
  c.drawBeaconRound && c.drawBeaconChain && c.drawBeaconPublicKey && c.drawBeaconDueAt
    ? {
        chain: c.drawBeaconChain,
        publicKey: c.drawBeaconPublicKey,
        round: Number(c.drawBeaconRound),
        dueAt: Number(c.drawBeaconDueAt),
      }
    : null;

export type DrawOutcome =
  | { kind: 'drawn'; record: DrawRecord }
  | { kind: 'scheduled'; round: FixedRound; message: string };

const waitingMessage = (r: FixedRound) =>
  `The draw waits for beacon round ${r.round}, due ${londonTime(r.dueAt, 'medium')} (UK time), and is made as soon as it is out.`;

const beaconUnavailable = (message: string) =>
  new HttpError(
    503,
    ERROR_CODES.beaconUnavailable,
    `The draw beacon could not be used: ${message}. The draw is retried.`,
  );

const lockedCompetition = async (trx: Knex.Transaction, competitionId: number) =>
  (await lockForUpdate(trx, Competition.query(trx).findById(competitionId))) as Competition | undefined;

/**
 * The refusals a draw (and fixing its round) answers, under the competition lock: 404 unknown or
 * archived; 409 drawn, still open, holds that may still be paid for, or no sales. Past them the
 * entries are final: no new holds after the close, no payable hold left.
 */
async function assertDrawable(
  trx: Knex.Transaction,
  c: Competition | undefined,
  now: number,
): Promise<Competition> {
  if (!c || c.status === 'archived') throw notFound(NOT_FOUND);
  if (c.drawnAt) throw conflict(ALREADY_DRAWN);
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

async function recordBeaconError(deps: DrawDeps, competitionId: number, message: string) {
  await deps
    .db('competitions')
    .where({ id: competitionId })
    .whereNull('drawnAt')
    .update({ drawBeaconError: message.slice(0, 500), drawBeaconErrorAt: Date.now() });
  deps.logger.warn({ competitionId, beaconError: message }, 'draw beacon failed; the draw is retried');
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Fixes (once) the beacon round the draw will use: the first round produced at least the beacon's
 * delay from now. Refused as the draw is while the entries may still change. Published at once
 * (`competition:updated` carries `drawBeacon`), before the round exists.
 */
export async function fixDrawRound(
  deps: DrawDeps,
  competitionId: number,
  now = Date.now(),
): Promise<FixedRound> {
  const existing = await inUnitOfWork(deps, async ({ trx }) =>
    fixedRoundOf(await assertDrawable(trx, await lockedCompetition(trx, competitionId), now)),
  );
  if (existing) return existing;
  let info: Awaited<ReturnType<DrawBeacon['info']>>;
  try {
    info = await deps.beacon.info();
  } catch (err) {
    await recordBeaconError(deps, competitionId, messageOf(err));
    throw beaconUnavailable(messageOf(err));
  }
  return inUnitOfWork(deps, async (uow) => {
    const c = await assertDrawable(uow.trx, await lockedCompetition(uow.trx, competitionId), now);
    const fixed = fixedRoundOf(c);
    if (fixed) return fixed; // another process fixed it meanwhile
    // Real time, not `now`: the round must lie in the future whatever the caller's clock says.
    const round = firstRoundAtOrAfter(Math.max(now, Date.now()) + deps.beacon.delayMs, info);
    const chosen: FixedRound = {
      chain: info.hash,
      publicKey: info.public_key,
      round,
      dueAt: roundTimeMs(round, info),
    };
    await uow.trx('competitions').where({ id: competitionId }).update({
      drawBeaconChain: chosen.chain,
      drawBeaconPublicKey: chosen.publicKey,
      drawBeaconRound: chosen.round,
      drawBeaconDueAt: chosen.dueAt,
      updatedAt: Date.now(),
    });
    await emitCompetitionUpdated(uow, competitionId, await bumpVersion(uow.trx, competitionId));
    return chosen;
  });
}

/** The fixed round, fetched and verified; a round a moment late is asked for again. */
async function fetchFixedRound(
  deps: DrawDeps,
  competitionId: number,
  fixed: FixedRound,
): Promise<BeaconRound> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 4; attempt++) {
    if (attempt) await sleep(500 * attempt);
    try {
      const info = await deps.beacon.info();
      if (info.hash !== fixed.chain || info.public_key !== fixed.publicKey) {
        throw new Error(
          `the beacon is now chain ${info.hash}, not the chain ${fixed.chain} this draw was fixed to`,
        );
      }
      return await deps.beacon.fetchRound(fixed.round);
    } catch (err) {
      lastError = err;
    }
  }
  await recordBeaconError(deps, competitionId, messageOf(lastError));
  throw beaconUnavailable(messageOf(lastError));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * An admin's Draw now waits for the round it fixed; the job, seeing the round fixed, may draw the
 * competition on that round first. The admin asked for exactly that draw, so it is their answer
 * (audited as their request), not a 409. Between admins the first wins and the others get 409.
 */
async function jobBeatDrawNow(
  trx: Knex.Transaction,
  c: Competition,
  by: DrawnBy,
  fixed: FixedRound,
): Promise<DrawRecord | undefined> {
  if (by.kind !== 'admin' || fixedRoundOf(c)?.round !== fixed.round) return undefined;
  const record = await loadDrawRecord(trx, c.id);
  if (record?.drawnBy !== 'auto') return undefined;
  const { entryCount } = await trx('draws').where({ competitionId: c.id }).first('entryCount');
  await writeAudit(trx, by.actor, 'competition.draw', { type: 'competition', id: c.id }, null, {
    winningNumber: record.winningNumber,
    entriesHash: record.entriesHash,
    entries: Number(entryCount),
    beaconRound: fixed.round,
    drawnBy: 'auto',
  });
  return record;
}

/**
 * Draws the competition: fixes its beacon round if that is not done yet, waits for the round when
 * it is due within `waitLimitMs` (otherwise answers 'scheduled': the job draws it when it is out),
 * fetches and verifies it, then draws under the lock. 404 unknown or archived; 409 already drawn,
 * still open, holds that may still be paid for, or no sales; 503 when the beacon fails (recorded
 * for the admin, retried by the job). Safe to call concurrently from any number of processes.
 */
export async function drawCompetition(
  deps: DrawDeps,
  competitionId: number,
  by: DrawnBy,
  now = Date.now(),
  waitLimitMs = DRAW_WAIT_LIMIT_MS,
): Promise<DrawOutcome> {
  const fixed = await fixDrawRound(deps, competitionId, now);
  const wait = fixed.dueAt - Date.now();
  if (wait > waitLimitMs) {
    if (by.kind === 'admin') {
      // The admin's Draw now decided the draw even though the job will make it.
      await inUnitOfWork(deps, ({ trx }) =>
        writeAudit(
          trx,
          by.actor,
          'competition.draw_scheduled',
          { type: 'competition', id: competitionId },
          null,
          { beaconRound: fixed.round, dueAt: new Date(fixed.dueAt).toISOString() },
        ),
      );
    }
    return { kind: 'scheduled', round: fixed, message: waitingMessage(fixed) };
  }
  if (wait > 0) await sleep(wait);
  const beacon = await fetchFixedRound(deps, competitionId, fixed);
  const drawnAt = Math.max(now, Date.now());

  const made = await inUnitOfWork(deps, async (uow) => {
    const { trx } = uow;
    // The first statement is a locking read: on MySQL every later read sees what the sales that
    // held this lock before us committed, and sales after us wait and then find drawn_at set.
    const locked = await lockedCompetition(trx, competitionId);
    const jobsDraw = locked?.drawnAt ? await jobBeatDrawNow(trx, locked, by, fixed) : undefined;
    if (jobsDraw) return { record: jobsDraw, byThisCall: false };
    const c = await assertDrawable(trx, locked, now);
    if (fixedRoundOf(c)?.round !== fixed.round) throw conflict('The draw was fixed to another beacon round.');
    // Cancelled orders' tickets were deleted, so sold rows are exactly the entries.
    const sold = (await trx('tickets')
      .where({ competitionId, status: 'sold' })
      .orderBy('number', 'asc')
      .select('number', 'userId', 'orderId')) as Array<{
      number: number;
      userId: number | null;
      orderId: number | null;
    }>;
    if (!c.drawSeed || !c.drawCommitment) throw new Error(`competition ${competitionId} has no draw seed`);
    const numbers = sold.map((r) => Number(r.number));
    // Every main prize in order from one HMAC stream; the 1st is the single-prize result.
    const prizes = mainPrizesOf(c);
    const multi = await computeDrawPrizes(c.drawSeed, numbers, prizes.length, beacon.randomness);
    const result = { ...multi.prizes[0]!, entriesHash: multi.entriesHash, entryCount: multi.entryCount };
    const winner = sold[result.index]!;
    try {
      await trx('draws').insert({
        competitionId,
        version: DRAW_RULE_VERSION,
        seed: c.drawSeed,
        commitment: c.drawCommitment,
        entriesHash: result.entriesHash,
        entryCount: result.entryCount,
        entries: JSON.stringify(numbers),
        winningIndex: result.index,
        winningNumber: result.winningNumber,
        winnerUserId: winner.userId,
        winnerOrderId: winner.orderId,
        beaconChain: fixed.chain,
        beaconPublicKey: fixed.publicKey,
        beaconRound: fixed.round,
        beaconRandomness: beacon.randomness,
        beaconSignature: beacon.signature,
        drawnAt,
        drawnByUserId: by.kind === 'admin' ? by.actor.id : null,
        drawnBy: by.kind === 'admin' ? by.actor.username : 'auto',
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(ALREADY_DRAWN);
      throw err;
    }
    await insertFurtherPrizes(trx, competitionId, prizes, multi, sold);
    await trx('competitions').where({ id: competitionId }).update({
      drawnAt,
      status: 'ended',
      updatedAt: drawnAt,
      drawBeaconRandomness: beacon.randomness,
      drawBeaconSignature: beacon.signature,
      drawBeaconError: null,
      drawBeaconErrorAt: null,
    });
    if (by.kind === 'admin') {
      await writeAudit(
        trx,
        by.actor,
        'competition.draw',
        { type: 'competition', id: competitionId },
        null,
        {
          winningNumber: result.winningNumber,
          ...(multi.prizes.length > 1 ? { winningNumbers: multi.prizes.map((p) => p.winningNumber) } : {}),
          entriesHash: result.entriesHash,
          entries: result.entryCount,
          beaconRound: fixed.round,
        },
        drawnAt,
      );
    }
    const version = await bumpVersion(trx, competitionId);
    const drawn = (await loadDrawRecord(trx, competitionId))!;
    uow.emit('draw.started', { competitionId });
    uow.emit('draw.result', { record: drawn });
    await emitCompetitionUpdated(uow, competitionId, version);
    return { record: drawn, byThisCall: true };
  });
  const { record } = made;
  // Whoever made the draw tells the winner and the entrants.
  if (!made.byThisCall) return { kind: 'drawn', record };

  deps.logger.info(
    { competitionId, winningNumber: record.winningNumber, by: record.drawnBy, beaconRound: fixed.round },
    'competition drawn',
  );
  // The e-mails are not events: they go once the draw has committed. The entrants' e-mails run
  // in the background, so 'Draw now' does not wait for thousands of messages.
  await notifyWinner(deps, record);
  void notifyEntrants(deps, record).catch((err) => {
    deps.logger.error({ err, competitionId }, 'draw result e-mails failed');
  });
  return { kind: 'drawn', record };
}

const drawProps = (record: DrawRecord, name: string, prize?: PrizeRecord): DrawProps => ({
  name,
  title: record.title,
  winningNumber: Number(prize?.winningNumber ?? record.winningNumber),
  drawnAt: Number(record.drawnAt),
  verifyLink: `/competitions/${record.competitionId}#verify-draw`,
  ...(prize ? { prize: prizeLabel(record, prize) } : {}),
});

/** Every prize's number for the entrants' e-mail, when there are several. */
const allWinningNumbers = (record: DrawRecord) =>
  record.prizes.length > 1
    ? {
        allWinningNumbers: record.prizes
          .map((p) => `${ordinal(p.position)} prize #${p.winningNumber}`)
          .join(', '),
      }
    : {};

/** Each prize's winner e-mail. A failure is logged and never undoes the draw. */
async function notifyWinner(deps: DrawDeps, record: DrawRecord) {
  const { competitionId } = record;
  for (const prize of record.prizes) {
    if (!prize.email || prize.deletedAt || prize.winnerNotifiedAt) continue;
    try {
      const name = prize.firstName?.trim() || prize.username || 'there';
      const sent = await sendWinner(
        deps.mailer,
        { to: prize.email, userId: prize.winnerUserId },
        drawProps(record, name, prize),
      );
      await markPrizeNotified(deps.db, competitionId, prize.position, Date.now());
      deps.logger.info({ competitionId, position: prize.position, sent }, 'winner e-mail sent');
    } catch (err) {
      deps.logger.error({ err, competitionId, position: prize.position }, 'winner e-mail failed');
    }
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
    // Every prize's winner has their own e-mail.
    .whereNotIn('u.id', [0, ...record.prizes.map((p) => p.winnerUserId ?? 0)])
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
      { ...drawProps(record, e.name), yourNumbers: e.numbers, ...allWinningNumbers(record) },
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

/** Expected refusals of an automatic draw: not ready, drawn elsewhere, or the beacon (retried). */
const isRetryLater = (err: unknown) => err instanceof HttpError && (err.status === 409 || err.status === 503);

/**
 * An auto-win competition sold its last ticket (the sale has committed): fix its beacon round now
 * and draw when the round is out, about DRAW_BEACON_DELAY_SECONDS later, without holding up the
 * payment. Errors are logged, not thrown: the sale stands, and the draw job picks it up again.
 */
export async function drawAfterSellOut(deps: DrawDeps, competitionId: number): Promise<void> {
  try {
    const fixed = await fixDrawRound(deps, competitionId);
    const timer = setTimeout(
      () => {
        drawCompetition(deps, competitionId, { kind: 'auto' }).catch((err) => {
          if (!isRetryLater(err))
            deps.logger.error(
              { err, competitionId },
              'automatic draw after sell-out failed; the job retries',
            );
        });
      },
      Math.max(0, fixed.dueAt - Date.now()),
    );
    timer.unref();
  } catch (err) {
    if (isRetryLater(err)) return; // drawn by another process, or the beacon: the job retries
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
    .select('id', 'autoWin', 'endDate', 'drawBeaconRound')) as Array<{
    id: number;
    autoWin: number | boolean;
    endDate: number;
    drawBeaconRound: number | null;
  }>;
  const drawn: number[] = [];
  for (const c of candidates) {
    // A fixed round means the draw was decided (Draw now, a sell-out): it follows the round.
    const due =
      Boolean(c.autoWin) ||
      c.drawBeaconRound !== null ||
      (autoAfterSeconds > 0 && Number(c.endDate) + autoAfterSeconds * 1000 <= now);
    if (!due) continue;
    try {
      const outcome = await drawCompetition(deps, c.id, { kind: 'auto' }, now);
      if (outcome.kind === 'drawn') drawn.push(c.id);
    } catch (err) {
      // 409: not ready yet, or another process drew it; 503: the beacon failed (recorded, retried
      // next time). Anything else must not stop the others.
      if (!isRetryLater(err)) {
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
  const fixed = fixedRoundOf(c);
  const beaconError = c.drawBeaconError
    ? `Last beacon error (${londonTime(Number(c.drawBeaconErrorAt), 'medium')} UK time): ${c.drawBeaconError}`
    : null;
  const beacon = { ...(fixed ? { beaconRound: fixed.round } : {}), ...(beaconError ? { beaconError } : {}) };
  // The same order of checks as drawCompetition: a payment in flight may still bring a first sale.
  const until = c.ticketsSold < c.totalTickets ? await liveHoldsUntil(db, c.id, now) : null;
  if (fixed) {
    const chain = isIndependentBeacon(fixed.chain)
      ? 'drand quicknet'
      : 'the local test beacon (not independent)';
    drawStatus = {
      state: 'waiting_for_beacon',
      message: `Waiting for round ${fixed.round} of ${chain}, due ${londonTime(fixed.dueAt, 'medium')} (UK time); drawn as soon as it is out.`,
    };
  } else if (!isClosed(c, now))
    drawStatus = { state: 'open', message: `${stillOpen(c.endDate)} ${automatic}` };
  else if (until) drawStatus = { state: 'awaiting_payments', message: awaitingPayments(until) };
  else if (c.ticketsSold === 0) drawStatus = { state: 'no_sales', message: NO_SALES };
  else {
    drawStatus = {
      state: 'ready',
      message: `Closed with ${c.ticketsSold} tickets sold: ready to draw. ${automatic}`,
    };
  }
  return { drawStatus: { ...drawStatus, ...beacon }, record: null };
}
