import type { Knex } from 'knex';
import { encodeBitmap } from '../../contract/bitmap';
import type { CompetitionSnapshot } from '../../contract/realtime';
import { Competition } from '../../db/models';
import { type CartOwner, isOwnedBy, ownerFilter } from './cartQueries';
import { liveTickets } from './liveTickets';

/**
 * A competition's ticket state for competition:watch, read in one transaction so the version
 * and the bitmaps agree. About 2 x 12.5 KB of base64 at 100,000 numbers.
 */
export async function competitionSnapshot(
  db: Knex,
  competitionId: number,
  owner: CartOwner | null,
  now = Date.now(),
): Promise<CompetitionSnapshot | null> {
  return db.transaction(async (trx) => {
    const c = await Competition.query(trx).findById(competitionId).whereIn('status', ['active', 'ended']);
    if (!c) return null;
    const versionRow = (await trx('competitionVersions').where({ competitionId }).first('version')) as
      | { version: number }
      | undefined;
    const rows: Array<{ number: number; status: string; guestId: string | null; userId: number | null }> =
      await liveTickets(trx, competitionId, now).select('number', 'status', 'guestId', 'userId');
    const sold: number[] = [];
    const reserved: number[] = [];
    const mine: number[] = [];
    const owned: number[] = [];
    for (const r of rows) {
      if (r.status === 'sold') {
        sold.push(r.number);
        if (owner?.userId != null && r.userId === owner.userId) owned.push(r.number);
        continue;
      }
      reserved.push(r.number);
      if (owner && isOwnedBy(owner, r)) mine.push(r.number);
    }
    return {
      competitionId: c.id,
      version: Number(versionRow?.version ?? 0),
      totalTickets: c.totalTickets,
      ticketsSold: c.ticketsSold,
      status: c.status,
      endDate: new Date(c.endDate).toISOString(),
      autoWin: c.autoWin,
      sold: encodeBitmap(c.totalTickets, sold),
      reserved: encodeBitmap(c.totalTickets, reserved),
      mine: mine.sort((a, b) => a - b),
      owned: owned.sort((a, b) => a - b),
      serverTime: new Date(now).toISOString(),
    };
  });
}

/** The part of a watch snapshot that is the same for every watcher of one (competition, version). */
export interface SharedSnapshot {
  competitionId: number;
  version: number;
  totalTickets: number;
  sold: string;
  reserved: string;
}

/** What each watcher reads for itself: the competition's fields, its version and its own holds. */
async function readWatcherPart(db: Knex, competitionId: number, owner: CartOwner | null, now: number) {
  return db.transaction(async (trx) => {
    const c = await Competition.query(trx).findById(competitionId).whereIn('status', ['active', 'ended']);
    if (!c) return null;
    const versionRow = (await trx('competitionVersions').where({ competitionId }).first('version')) as
      | { version: number }
      | undefined;
    const mine: number[] = owner
      ? await liveTickets(trx, competitionId, now)
          .where('status', 'reserved')
          .where(ownerFilter(owner, 'tickets'))
          .orderBy('number')
          .pluck('number')
      : [];
    // Bought with this account: shown as the visitor's own, apart from everyone else's.
    const owned: number[] =
      owner?.userId != null
        ? await trx('tickets')
            .where({ competitionId, status: 'sold', userId: owner.userId })
            .orderBy('number')
            .pluck('number')
        : [];
    return { competition: c, version: Number(versionRow?.version ?? 0), mine, owned };
  });
}

/** The bitmaps and the version they belong to, read in one transaction. */
async function readShared(db: Knex, competitionId: number, now: number): Promise<SharedSnapshot | null> {
  return db.transaction(async (trx) => {
    const c = await Competition.query(trx).findById(competitionId).select('id', 'totalTickets');
    if (!c) return null;
    const versionRow = (await trx('competitionVersions').where({ competitionId }).first('version')) as
      | { version: number }
      | undefined;
    const rows: Array<{ number: number; status: string }> = await liveTickets(trx, competitionId, now).select(
      'number',
      'status',
    );
    const sold: number[] = [];
    const reserved: number[] = [];
    for (const r of rows) (r.status === 'sold' ? sold : reserved).push(r.number);
    return {
      competitionId,
      version: Number(versionRow?.version ?? 0),
      totalTickets: c.totalTickets,
      sold: encodeBitmap(c.totalTickets, sold),
      reserved: encodeBitmap(c.totalTickets, reserved),
    };
  });
}

/**
 * The shared part of the snapshot, built once per (competition, version) however many sockets
 * watch (issue 15: a flood of watches rebuilt 2 x 12.5 KB of bitmaps each time). Every change to
 * a competition's tickets bumps its version in the same transaction, so a version names one
 * ticket state; the version is read from the database on every watch, which keeps several
 * processes correct. Only the latest version of each competition is kept, for the most recently
 * watched `maxCompetitions`; concurrent watchers of one competition share one read.
 *
 * A hold that expires without a version bump stays in the bitmap until the sweeper releases it
 * (with a new version), exactly as every socket already watching sees it.
 */
export class SnapshotCache {
  private readonly entries = new Map<number, SharedSnapshot>();
  private readonly reading = new Map<number, Promise<SharedSnapshot | null>>();
  /** How many times the bitmaps were read from the database (tests, benchmarks). */
  reads = 0;

  constructor(
    private readonly db: Knex,
    readonly maxCompetitions = 32,
  ) {}

  /** The shared part at `version`, or at whatever version a read in progress finds (the caller checks). */
  async shared(competitionId: number, version: number): Promise<SharedSnapshot | null> {
    const hit = this.entries.get(competitionId);
    if (hit?.version === version) {
      this.entries.delete(competitionId); // most recently used last
      this.entries.set(competitionId, hit);
      return hit;
    }
    let pending = this.reading.get(competitionId);
    if (!pending) {
      this.reads++;
      pending = readShared(this.db, competitionId, Date.now())
        .then((snap) => {
          if (snap) this.remember(snap);
          return snap;
        })
        .finally(() => this.reading.delete(competitionId));
      this.reading.set(competitionId, pending);
    }
    return pending;
  }

  private remember(snap: SharedSnapshot) {
    const current = this.entries.get(snap.competitionId);
    if (current && current.version > snap.version) return;
    this.entries.delete(snap.competitionId);
    this.entries.set(snap.competitionId, snap);
    // Map keeps insertion order: the first key is the least recently used.
    while (this.entries.size > this.maxCompetitions) this.entries.delete(this.entries.keys().next().value!);
  }
}

/**
 * competition:watch's snapshot: the watcher's own part (fields, version, its numbers) read for
 * it, and the bitmaps of that version from the cache. If the competition changes between the
 * two reads they disagree on the version; try again, and after a few tries read it all at once.
 */
export async function watchSnapshot(
  db: Knex,
  cache: SnapshotCache,
  competitionId: number,
  owner: CartOwner | null,
): Promise<CompetitionSnapshot | null> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const now = Date.now();
    const own = await readWatcherPart(db, competitionId, owner, now);
    if (!own) return null;
    const shared = await cache.shared(competitionId, own.version);
    const c = own.competition;
    if (shared?.version !== own.version || shared.totalTickets !== c.totalTickets) continue;
    return {
      competitionId: c.id,
      version: own.version,
      totalTickets: c.totalTickets,
      ticketsSold: c.ticketsSold,
      status: c.status,
      endDate: new Date(c.endDate).toISOString(),
      autoWin: c.autoWin,
      sold: shared.sold,
      reserved: shared.reserved,
      mine: own.mine,
      owned: own.owned,
      serverTime: new Date(now).toISOString(),
    };
  }
  return competitionSnapshot(db, competitionId, owner);
}
