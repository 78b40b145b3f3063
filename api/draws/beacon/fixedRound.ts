import { type BeaconRound, requiredRound, roundTimeMs } from '../../../contract/beacon';
import { ERROR_CODES } from '../../../contract/errors';
import type { Competition } from '../../../db/models';
import { HttpError } from '../../platform/errors';
import { inUnitOfWork } from '../../platform/unitOfWork';
import { bumpVersionNow } from '../../tickets/competitionVersions';
import {
  assertDrawable,
  type DrawDeps,
  emitCompetitionUpdated,
  lockedCompetition,
  londonTime,
} from '../drawable';
import type { DrawBeacon } from './drawBeacon';

// The beacon round a draw uses (docs/draws.md "Version 2"): fixed, and published, once the entries
// are final, before the round exists; then waited for, fetched and verified.

/** The beacon round a competition's draw waits for, once fixed. */
export interface FixedRound {
  chain: string;
  publicKey: string;
  round: number;
  dueAt: number;
}

export const fixedRoundOf = (c: Competition): FixedRound | null =>
  c.drawBeaconRound && c.drawBeaconChain && c.drawBeaconPublicKey && c.drawBeaconDueAt
    ? {
        chain: c.drawBeaconChain,
        publicKey: c.drawBeaconPublicKey,
        round: Number(c.drawBeaconRound),
        dueAt: Number(c.drawBeaconDueAt),
      }
    : null;

export const waitingMessage = (r: FixedRound) =>
  `The draw waits for beacon round ${r.round}, due ${londonTime(r.dueAt, 'medium')} (UK time), and is made as soon as it is out.`;

const beaconUnavailable = (message: string) =>
  new HttpError(
    503,
    ERROR_CODES.beaconUnavailable,
    `The draw beacon could not be used: ${message}. The draw is retried.`,
  );

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
    // Real time, not `now`: the round must lie in the future whatever the caller's clock says. The
    // moment is stored and published, so anyone can recompute the round (contract requiredRound).
    const entriesFinalAt = Math.max(now, Date.now());
    const round = requiredRound(entriesFinalAt, deps.beacon.delayMs, info);
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
      drawEntriesFinalAt: entriesFinalAt,
      drawBeaconDelayMs: deps.beacon.delayMs,
      drawBeaconGenesis: info.genesis_time,
      drawBeaconPeriod: info.period,
      updatedAt: Date.now(),
    });
    await emitCompetitionUpdated(uow, competitionId, await bumpVersionNow(uow.trx, competitionId));
    uow.emit('draw.pending', {
      competitionId,
      round,
      expectedAt: chosen.dueAt,
      entriesFinalAt,
      delayMs: deps.beacon.delayMs,
    });
    return chosen;
  });
}

/**
 * The fixed round once it is out (its time, or produced on demand), fetched and verified; a round
 * a moment late is asked for again. A failure is recorded for the admin and answered 503.
 */
export async function awaitFixedRound(
  deps: DrawDeps,
  competitionId: number,
  fixed: FixedRound,
): Promise<BeaconRound> {
  const { beacon } = deps;
  let lastError: unknown;
  for (let attempt = 0; attempt < 4; attempt++) {
    if (attempt && beacon.retryPauseMs) await sleep(beacon.retryPauseMs * attempt);
    try {
      await beacon.waitForRound(fixed.round, fixed.dueAt);
      const info = await beacon.info();
      if (info.hash !== fixed.chain || info.public_key !== fixed.publicKey) {
        throw new Error(
          `the beacon is now chain ${info.hash}, not the chain ${fixed.chain} this draw was fixed to`,
        );
      }
      return await beacon.fetchRound(fixed.round);
    } catch (err) {
      lastError = err;
    }
  }
  await recordBeaconError(deps, competitionId, messageOf(lastError));
  throw beaconUnavailable(messageOf(lastError));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
