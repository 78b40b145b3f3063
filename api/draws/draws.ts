import type { Knex } from 'knex';
import type { BeaconRound } from '../../contract/beacon';
import { computeDrawPrizes, DRAW_RULE_VERSION } from '../../contract/draw';
import { mainPrizesOf } from '../../contract/prizes';
import { isUniqueViolation } from '../../db/dialect';
import type { Competition } from '../../db/models';
import { writeAudit } from '../platform/auditLog';
import { conflict, HttpError } from '../platform/errors';
import { inUnitOfWork, type UnitOfWork } from '../platform/unitOfWork';
import { bumpVersionNow } from '../tickets/competitionVersions';
import {
  awaitFixedRound,
  type FixedRound,
  fixDrawRound,
  fixedRoundOf,
  waitingMessage,
} from './beacon/fixedRound';
import { openMainClaims } from './claims/claims';
import {
  ALREADY_DRAWN,
  assertDrawable,
  type DrawDeps,
  type DrawnBy,
  emitCompetitionUpdated,
  lockedCompetition,
} from './drawable';
import { type DrawMail, oweDrawEmails } from './drawEmails';
import { loadDrawRecord } from './drawRecords';
import type { DrawRecord } from './presenter';
import { insertFurtherPrizes } from './prizes';

// The draw (docs/draws.md): drawing exactly once, and telling everyone after COMMIT.
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

/** A request (Draw now, the job) waits for a round due this soon; a later one is drawn when it is out. */
export const DRAW_WAIT_LIMIT_MS = 10_000;

export type DrawOutcome =
  | { kind: 'drawn'; record: DrawRecord }
  | { kind: 'scheduled'; round: FixedRound; message: string };

/** Expected refusals of an automatic draw: not ready, drawn elsewhere, or the beacon (retried). */
export const isRetryLater = (err: unknown) =>
  err instanceof HttpError && (err.status === 409 || err.status === 503);

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
  // The job completed this admin's request (still on the competition): its record and audit name them.
  if (record && record.drawnBy === by.actor.username && c.drawRequestedBy === by.actor.username)
    return record;
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
 * The admin who pressed Draw now, remembered on the competition (the first one), so that a draw
 * the job completes later, once the round is out, is recorded and audited as theirs.
 */
async function rememberRequester(deps: DrawDeps, competitionId: number, by: DrawnBy): Promise<void> {
  if (by.kind !== 'admin') return;
  await deps
    .db('competitions')
    .where({ id: competitionId })
    .whereNull('drawRequestedBy')
    .whereNull('drawnAt')
    .update({ drawRequestedByUserId: by.actor.id, drawRequestedBy: by.actor.username });
}

/** Who the draw is recorded as: the caller, or for the job the admin whose request it completes. */
const drawerOf = (c: Competition, by: DrawnBy): DrawnBy =>
  by.kind === 'auto' && c.drawRequestedBy && c.drawRequestedByUserId !== null
    ? { kind: 'admin', actor: { id: Number(c.drawRequestedByUserId), username: c.drawRequestedBy } }
    : by;

/** The round is due beyond the wait limit: 'scheduled' (the job draws it), audited for an admin. */
async function scheduleLater(
  deps: DrawDeps,
  competitionId: number,
  by: DrawnBy,
  fixed: FixedRound,
): Promise<DrawOutcome> {
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

interface SoldEntry {
  number: number;
  userId: number | null;
  orderId: number | null;
}

interface MadeDraw {
  c: Competition;
  sold: SoldEntry[];
  fixed: FixedRound;
  beacon: BeaconRound;
  by: DrawnBy;
  drawnAt: number;
}

/** Computes every prize from the seed, the entries and the round, and writes the draw's rows. */
async function recordDraw(trx: Knex.Transaction, { c, sold, fixed, beacon, by, drawnAt }: MadeDraw) {
  const competitionId = c.id;
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
}

/**
 * Under the competition lock: the draw on the verified round, once, with `draw:started`,
 * `draw:result` and `competition:updated` after COMMIT. `byThisCall` is false when the job drew it
 * first on the round an admin's Draw now was waiting for.
 */
async function drawUnderLock(
  uow: UnitOfWork,
  competitionId: number,
  { by, fixed, beacon, now, drawnAt }: Omit<MadeDraw, 'c' | 'sold'> & { now: number },
): Promise<{ record: DrawRecord; byThisCall: boolean; mail?: DrawMail }> {
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
    .select('number', 'userId', 'orderId')) as SoldEntry[];
  await recordDraw(trx, { c, sold, fixed, beacon, by: drawerOf(c, by), drawnAt });
  // Made by the admin's own call: no request is left that the job completed (jobBeatDrawNow), so
  // the same admin's concurrent presses get their 409.
  if (by.kind === 'admin')
    await trx('competitions')
      .where({ id: competitionId })
      .update({ drawRequestedBy: null, drawRequestedByUserId: null });
  const version = await bumpVersionNow(trx, competitionId);
  const drawn = (await loadDrawRecord(trx, competitionId))!;
  // Each winner's claim is opened with the draw, so their e-mail links it (docs/draws.md#7-claiming-a-prize).
  const claims = await openMainClaims(trx, drawn, drawnAt);
  // The winners' and entrants' e-mails are owed with the draw (sent after COMMIT by the outbox).
  const mail = await oweDrawEmails(trx, drawn, drawnAt, claims);
  uow.emit('draw.started', { competitionId });
  uow.emit('draw.result', { record: drawn });
  await emitCompetitionUpdated(uow, competitionId, version);
  return { record: drawn, byThisCall: true, mail };
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
  await rememberRequester(deps, competitionId, by);
  if (fixed.dueAt - Date.now() > waitLimitMs) return scheduleLater(deps, competitionId, by, fixed);
  const beacon = await awaitFixedRound(deps, competitionId, fixed);
  const drawnAt = Math.max(now, Date.now());
  const made = await inUnitOfWork(deps, (uow) =>
    drawUnderLock(uow, competitionId, { by, fixed, beacon, now, drawnAt }),
  );
  const { record } = made;
  // Whoever made the draw tells the winner and the entrants.
  if (!made.byThisCall) return { kind: 'drawn', record };

  deps.logger.info(
    { competitionId, winningNumber: record.winningNumber, by: record.drawnBy, beaconRound: fixed.round },
    'competition drawn',
  );
  deps.faults?.reach('after-draw-committed');
  // The e-mails go once the draw has committed: the winners' at once, the entrants' in the
  // background, so 'Draw now' does not wait for thousands of messages. Whatever fails or is cut
  // off here, the outbox worker sends later.
  await deps.mailer.outbox.deliver(made.mail?.winners ?? []);
  if (made.mail?.entrants.length) deps.mailer.outbox.kick();
  return { kind: 'drawn', record };
}

/**
 * An auto-win competition sold its last ticket (the sale has committed): fix its beacon round now
 * and draw when the round is out, about DRAW_BEACON_DELAY_SECONDS later (at once on the on-demand
 * test beacon), without holding up the payment. Errors are logged, not thrown: the sale stands,
 * and the draw job picks it up again.
 */
export async function drawAfterSellOut(deps: DrawDeps, competitionId: number): Promise<void> {
  const failed = (err: unknown) => {
    // 409: drawn by another process; 503: the beacon. The job retries both.
    if (!isRetryLater(err))
      deps.logger.error({ err, competitionId }, 'automatic draw after sell-out failed; the job retries');
  };
  let fixed: FixedRound;
  try {
    fixed = await fixDrawRound(deps, competitionId);
  } catch (err) {
    failed(err);
    return;
  }
  void deps.beacon
    .waitForRound(fixed.round, fixed.dueAt)
    .then(() => drawCompetition(deps, competitionId, { kind: 'auto' }, Date.now(), Number.POSITIVE_INFINITY))
    .catch(failed);
}
