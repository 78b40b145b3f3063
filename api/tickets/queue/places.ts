import type { Knex } from 'knex';
import { iso } from '../../../contract/dates';
import { ERROR_CODES } from '../../../contract/errors';
import { etaSecondsOf, type QueuePlaceView } from '../../../contract/launchQueue';
import { formatOpening } from '../../../contract/londonTime';
import { Competition } from '../../../db/models';
import { conflict, HttpError, notFound } from '../../platform/errors';
import type { CartOwnerRef, EventBus } from '../../platform/events';
import { addressKeyOf, findEntry, type QueueEntryRow, queueOwnerKey, waitingQuery } from './entries';

// Joining a launch queue (docs/draws.md#launch-queue): from LAUNCH_QUEUE_OPENS_MINUTES before the
// opening, one place per account or guest session, at most LAUNCH_QUEUE_PER_ADDRESS per address.

export interface QueueSettings {
  opensMinutes: number;
  perAddress: number;
  admitPerSecond: number;
  admissionMinutes: number;
}

export interface QueueJobDeps {
  db: Knex;
  events: EventBus;
  settings: QueueSettings;
}

export const PER_ADDRESS_MESSAGE =
  'Too many places in this queue come from your network. Please try again from another connection.';

/** 404 unless the competition is public, running and has a queue. */
async function queuedCompetition(db: Knex, competitionId: number): Promise<Competition> {
  const c = (await Competition.query(db).findById(competitionId)) as Competition | undefined;
  if (!c || c.status === 'draft' || c.status === 'archived' || !c.launchQueue || c.startsAt === null)
    throw notFound('This competition has no launch queue.');
  return c;
}

/** Where this entry stands now. */
export async function placeOf(
  db: Knex,
  c: Competition,
  entry: QueueEntryRow,
  settings: QueueSettings,
  now: number,
): Promise<QueuePlaceView> {
  if (entry.admittedAt !== null || c.queueDrainedAt !== null) {
    const expiresAt = c.queueDrainedAt === null ? entry.admissionExpiresAt : null;
    return { status: 'admitted', entryId: entry.id, ...(expiresAt ? { expiresAt: iso(expiresAt) } : {}) };
  }
  if (c.queueShuffledAt === null || entry.position === null)
    return { status: 'waiting', entryId: entry.id, shuffleAt: iso(Math.max(Number(c.startsAt), now)) };
  // Rank among those still waiting: the positions before this one not yet let in.
  const [counted] = (await waitingQuery(db, c.id)
    .clearOrder()
    .whereNotNull('position')
    .where('position', '<', entry.position)
    .count({ n: '*' })) as Array<{ n: number | string }>;
  const ahead = Number(counted?.n ?? 0);
  const rate = c.queueAdmitPerSecond ?? settings.admitPerSecond;
  return {
    status: 'waiting',
    entryId: entry.id,
    position: ahead + 1,
    ahead,
    etaSeconds: etaSecondsOf(ahead, rate),
  };
}

/**
 * Joins, or answers the place already taken (joining again changes nothing). 409 before the
 * joining window or once the competition has closed, 429 past the per-address cap.
 */
export async function joinQueue(
  db: Knex,
  settings: QueueSettings & { secret: string },
  owner: CartOwnerRef,
  ip: string,
  competitionId: number,
  now: number,
): Promise<QueuePlaceView> {
  const c = await queuedCompetition(db, competitionId);
  const found = await findEntry(db, competitionId, owner);
  if (found) return placeOf(db, c, found, settings, now);
  if (c.status !== 'active' || Number(c.endDate) <= now || c.drawnAt)
    throw conflict('This competition is closed to new entries.');
  const opensAt = Number(c.startsAt) - settings.opensMinutes * 60_000;
  if (now < opensAt)
    throw conflict(
      `The queue opens at ${formatOpening(opensAt)}, ${settings.opensMinutes} minutes before the launch.`,
      {
        opensAt: iso(opensAt),
      },
    );
  const addressKey = addressKeyOf(settings.secret, ip);
  const fromAddress = async () => {
    const [counted] = (await db('launchQueueEntries')
      .where({ competitionId, addressKey })
      .count({ n: '*' })) as Array<{ n: number | string }>;
    return Number(counted?.n ?? 0);
  };
  const overCap = () => new HttpError(429, ERROR_CODES.rateLimited, PER_ADDRESS_MESSAGE);
  if ((await fromAddress()) >= settings.perAddress) throw overCap();
  // The unique (competition, owner) key makes parallel joins of one visitor one place.
  await db('launchQueueEntries')
    .insert({
      competitionId,
      ownerKey: queueOwnerKey(owner),
      userId: owner.userId,
      guestId: owner.guestId,
      addressKey,
      joinedAt: now,
    })
    .onConflict(['competitionId', 'ownerKey'])
    .ignore();
  // Counted again after the insert committed: of parallel joins from one address, whoever sees the
  // cap passed gives its place back, so the cap holds (the last to commit sees every kept place).
  if ((await fromAddress()) > settings.perAddress) {
    await db('launchQueueEntries')
      .where({ competitionId, ownerKey: queueOwnerKey(owner), joinedAt: now, addressKey })
      .whereNull('position')
      .delete();
    throw overCap();
  }
  const entry = (await findEntry(db, competitionId, owner))!;
  const fresh = (await Competition.query(db).findById(competitionId))!;
  return placeOf(db, fresh, entry, settings, now);
}
