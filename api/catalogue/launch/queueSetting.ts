import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { CompetitionUpdateInput } from '../../../contract/admin';
import type { Competition } from '../../../db/models';
import { badRequest, conflict } from '../../platform/errors';

// The launch queue as the admin sets it (docs/draws.md#launch-queue): `launchQueue` needs an
// opening time, and is fixed once anyone joined. Turned on, the queue gets its secret seed and the
// public commitment at once, so the commitment is published before anyone can join.

export const QUEUE_NEEDS_OPENING = 'A launch queue needs an opening time (startsAt).';
export const QUEUE_FIXED = 'The launch queue cannot change once visitors have joined it.';

interface QueueColumns {
  launchQueue?: boolean;
  queueSeed?: string;
  queueCommitment?: string;
}

const newQueueSeed = () => {
  const seed = randomBytes(32);
  return {
    queueSeed: seed.toString('hex'),
    queueCommitment: createHash('sha256').update(seed).digest('hex'),
  };
};

const needsOpening = () => badRequest(QUEUE_NEEDS_OPENING, { fields: { launchQueue: QUEUE_NEEDS_OPENING } });

/** A new competition's queue columns: 400 for a queue without an opening time. */
export function queueColumnsOnCreate(input: { launchQueue: boolean; startsAt: number | null }): QueueColumns {
  if (!input.launchQueue) return {};
  if (input.startsAt === null) throw needsOpening();
  return { launchQueue: true, ...newQueueSeed() };
}

/**
 * An edit's queue columns: 400 when the queue would be left without an opening time, 409 when
 * turning it on or off after someone joined.
 */
export async function queueColumnsOnUpdate(
  trx: Knex.Transaction,
  current: Competition,
  input: CompetitionUpdateInput,
): Promise<QueueColumns> {
  const wanted = input.launchQueue ?? Boolean(current.launchQueue);
  const startsAt = input.startsAt === undefined ? current.startsAt : input.startsAt;
  if (wanted && startsAt === null) throw needsOpening();
  // The opening may still move (openingChange's rule): whoever joined before it is shuffled.
  const toggles = input.launchQueue !== undefined && input.launchQueue !== Boolean(current.launchQueue);
  if (!toggles) return {};
  const joined = await trx('launchQueueEntries').where({ competitionId: current.id }).first('id');
  if (joined) throw conflict(QUEUE_FIXED, { fields: { launchQueue: QUEUE_FIXED } });
  return wanted
    ? { launchQueue: true, ...(current.queueSeed ? {} : newQueueSeed()) }
    : { launchQueue: false };
}
