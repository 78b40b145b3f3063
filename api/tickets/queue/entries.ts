import { createHmac } from 'node:crypto';
import type { Knex } from 'knex';
import type { CartOwnerRef } from '../../platform/events';

// launch_queue_entries (migration 050): one place per account or guest session and competition.

export interface QueueEntryRow {
  id: number;
  competitionId: number;
  ownerKey: string;
  userId: number | null;
  guestId: string;
  joinedAt: number;
  position: number | null;
  admittedAt: number | null;
  admissionExpiresAt: number | null;
}

/** The entry's key: the account once signed in, else the guest session. */
export const queueOwnerKey = (owner: CartOwnerRef) =>
  owner.userId !== null ? `u:${owner.userId}` : `g:${owner.guestId}`;

/** Every key a visitor may have joined under: the guest session's, and the account's. */
const ownerKeys = (owner: CartOwnerRef) => [
  `g:${owner.guestId}`,
  ...(owner.userId !== null ? [`u:${owner.userId}`] : []),
];

/** A keyed hash of the client address: the per-address cap counts it, the address is never stored. */
export const addressKeyOf = (secret: string, ip: string) =>
  createHmac('sha256', secret).update(`launch-queue-address:${ip}`).digest('hex');

export const rowOf = (r: Record<string, unknown>): QueueEntryRow => ({
  id: Number(r.id),
  competitionId: Number(r.competitionId),
  ownerKey: String(r.ownerKey),
  userId: r.userId === null || r.userId === undefined ? null : Number(r.userId),
  guestId: String(r.guestId),
  joinedAt: Number(r.joinedAt),
  position: r.position === null || r.position === undefined ? null : Number(r.position),
  admittedAt: r.admittedAt === null || r.admittedAt === undefined ? null : Number(r.admittedAt),
  admissionExpiresAt:
    r.admissionExpiresAt === null || r.admissionExpiresAt === undefined ? null : Number(r.admissionExpiresAt),
});

export const ownerRefOf = (e: QueueEntryRow): CartOwnerRef => ({ guestId: e.guestId, userId: e.userId });

/** This visitor's entry in the competition's queue (under either key; the account's first). */
export async function findEntry(
  db: Knex,
  competitionId: number,
  owner: CartOwnerRef,
): Promise<QueueEntryRow | undefined> {
  const rows = (await db('launchQueueEntries')
    .where({ competitionId })
    .whereIn('ownerKey', ownerKeys(owner))
    .select('*')) as Record<string, unknown>[];
  const entries = rows.map(rowOf);
  return entries.find((e) => e.ownerKey.startsWith('u:')) ?? entries[0];
}

/** Waiting entries (not admitted), in queue order: shuffled positions, then arrival. */
export const waitingQuery = (db: Knex, competitionId: number) =>
  db('launchQueueEntries')
    .where({ competitionId })
    .whereNull('admittedAt')
    .orderByRaw('CASE WHEN position IS NULL THEN 1 ELSE 0 END')
    .orderBy([
      { column: 'position', order: 'asc' },
      { column: 'id', order: 'asc' },
    ]);
