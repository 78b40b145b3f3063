import type { Knex } from 'knex';
import { ERROR_CODES } from '../../../contract/errors';
import { QUEUE_REQUIRED_MESSAGE } from '../../../contract/launchQueue';
import type { Competition } from '../../../db/models';
import { HttpError } from '../../platform/errors';
import type { CartOwnerRef } from '../../platform/events';
import { findEntry } from './entries';

/**
 * A hold on a queued launch past its opening while anyone still waits needs a live admission:
 * 403 queue_required otherwise. Asked only when the competition row says launchQueue and the queue
 * was not drained, so every other hold reads nothing more.
 */
export async function assertAdmitted(
  db: Knex,
  competition: Competition,
  owner: CartOwnerRef,
  now: number,
): Promise<void> {
  if (!competition.launchQueue || competition.queueDrainedAt !== null) return;
  const entry = await findEntry(db, competition.id, owner);
  if (entry?.admissionExpiresAt != null && entry.admissionExpiresAt > now) return;
  // Nobody waiting (the tick has not marked it drained yet): open to all.
  const waiting = await db('launchQueueEntries')
    .where({ competitionId: competition.id })
    .whereNull('admittedAt')
    .first('id');
  if (!waiting && competition.queueShuffledAt !== null) return;
  throw new HttpError(403, ERROR_CODES.queueRequired, QUEUE_REQUIRED_MESSAGE);
}
