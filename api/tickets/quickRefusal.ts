import type { Knex } from 'knex';
import type { AddToCartInput } from '../../contract/cart';
import type { Competition } from '../../db/models';
import type { CartOwner } from './cartQueries';
import { cartKeyOf } from './cartRevision';
import { assertMayPlay, numbersTaken, openCompetition, takenFromOthers } from './holdChecks';

// The quick refusal of chosen numbers, before any lock or transaction (docs/architecture.md, step
// 6a): on a hot number almost every request loses, and here it loses from memory or for a read or
// two instead of a transaction of a dozen statements. Whatever passes is decided again in the
// hold's unit of work (planHold in reservations.ts), where the unique key settles a race.

/** What the quick refusal needs; both caches are one per app, and optional (tests, scripts). */
export interface QuickRefusalDeps {
  db: Knex;
  /** This process's holds of chosen numbers in flight. */
  inFlight?: HoldsInFlight;
  /** Competitions this process recently found open. */
  recentlyOpen?: RecentlyOpen;
}

// How often a hold waits for another in flight on its numbers before it goes ahead regardless (the
// unique key decides then).
const MAX_WAITS = 3;

// The chosen numbers this process is holding right now: a hold's unit of work from its start to
// its COMMIT or ROLLBACK, and whose it is. Someone else's hold in flight on a number refuses a
// request for it at once, from memory (refuseTakenEarly): on a hot number the losers get their 409
// without a read, instead of waiting for the winner and reading again, or blocking on the winner's
// row lock in a transaction of a dozen statements. The same person's hold in flight (a double
// click) is waited for, then the numbers are looked at again: the second request answers with the
// line the first one made. Holds in other processes still meet on the unique key, as before.

const keyOf = (competitionId: number, n: number) => `${competitionId}:${n}`;

export class HoldsInFlight {
  private numbers = new Map<string, { hold: Promise<unknown>; owner: string }>();

  /** The numbers of these that someone other than `owner` is holding right now. */
  takenByOthers(competitionId: number, numbers: number[], owner: CartOwner): number[] {
    const mine = cartKeyOf(owner);
    return numbers.filter((n) => {
      const found = this.numbers.get(keyOf(competitionId, n));
      return found !== undefined && found.owner !== mine;
    });
  }

  /** The holds in flight on any of these numbers (none: nothing to wait for). */
  pending(competitionId: number, numbers: number[]): Promise<unknown>[] {
    const found = new Set<Promise<unknown>>();
    for (const n of numbers) {
      const hold = this.numbers.get(keyOf(competitionId, n))?.hold;
      if (hold) found.add(hold);
    }
    return [...found];
  }

  /** Runs `work`, the owner's hold of these numbers, with them in flight until it settles. */
  run<T>(competitionId: number, numbers: number[], owner: CartOwner, work: () => Promise<T>): Promise<T> {
    const hold = work();
    const entry = { hold, owner: cartKeyOf(owner) };
    const keys = numbers.map((n) => keyOf(competitionId, n));
    for (const key of keys) this.numbers.set(key, entry);
    const done = () => {
      for (const key of keys) if (this.numbers.get(key) === entry) this.numbers.delete(key);
    };
    hold.then(done, done);
    return hold;
  }
}

// How long the quick refusal trusts a competition it found open. A hot number's losers all ask
// about the same row; a second out of date changes at most which 409 a taken number hears, since
// that "open" is never the last word (below).
const RECENTLY_OPEN_MS = 1000;

/**
 * The competitions this process found open in the last RECENTLY_OPEN_MS, for refuseTakenEarly
 * only: there the competition row only decides which answer comes first, and whatever the quick
 * refusal lets through is decided again from fresh reads in the hold's transaction (planHold).
 * Only "open" is remembered; a competition found closed, missing or past its end is read again.
 * So within that second a request for taken numbers on a competition that has just closed hears
 * "taken" rather than "closed"; one for free numbers hears "closed" at once.
 */
export class RecentlyOpen {
  private seen = new Map<number, { competition: Competition; until: number }>();

  async open(db: Knex, competitionId: number, now: number): Promise<Competition> {
    const hit = this.seen.get(competitionId);
    if (hit && hit.until > now && hit.competition.endDate > now) return hit.competition;
    this.seen.delete(competitionId);
    const competition = await openCompetition(db, competitionId, now);
    this.seen.set(competitionId, { competition, until: now + RECENTLY_OPEN_MS });
    return competition;
  }
}

/**
 * 409 with the numbers taken when someone else is holding one of them in this process right now
 * (HoldsInFlight: no read at all), or holds or bought one now (one read). Here a loser pays at
 * most two reads (three for an account: the break check; one fewer when the competition is
 * RecentlyOpen) instead of a transaction of eight statements. The answers that come before it
 * (404, closed, the skill question, a break) are the same as in planHold; the per-person cap is
 * not counted first, so a request refused for both hears about the numbers.
 */
async function refuseTakenEarly(
  { db, recentlyOpen, inFlight }: QuickRefusalDeps,
  owner: CartOwner,
  input: AddToCartInput,
  skillPassed: boolean,
  now: number,
): Promise<void> {
  const chosen = input.selectedNumbers ?? [];
  if (!chosen.length || !skillPassed) return;
  const competition = recentlyOpen
    ? await recentlyOpen.open(db, input.competitionId, now)
    : await openCompetition(db, input.competitionId, now);
  await assertMayPlay(db, owner.userId, now);
  if (chosen.some((n) => n > competition.totalTickets)) return; // planHold answers 400
  const beingTaken = inFlight?.takenByOthers(competition.id, chosen, owner) ?? [];
  if (beingTaken.length) throw numbersTaken(beingTaken);
  const taken = await takenFromOthers(db, competition.id, chosen, owner, now);
  if (taken.length) throw numbersTaken(taken);
}

/**
 * Runs `hold`, the request's unit of work, behind the quick refusal: refused at once when the
 * chosen numbers are taken by someone else; after the same person's hold in flight on any of
 * them, which is waited for and the numbers looked at again; with the numbers in flight until
 * `hold` settles.
 */
export async function withQuickRefusal<T>(
  deps: QuickRefusalDeps,
  owner: CartOwner,
  input: AddToCartInput,
  skillPassed: boolean,
  now: number,
  hold: () => Promise<T>,
): Promise<T> {
  const chosen = input.selectedNumbers ?? [];
  // Only a request that may hold marks its numbers in flight: one without the skill answer would
  // otherwise refuse others until its own 403.
  const inFlight = chosen.length && skillPassed ? deps.inFlight : undefined;
  for (let waits = 0; ; waits++) {
    await refuseTakenEarly(deps, owner, input, skillPassed, now);
    const pending = inFlight?.pending(input.competitionId, chosen) ?? [];
    if (!pending.length || waits >= MAX_WAITS) break;
    await Promise.allSettled(pending);
  }
  return inFlight ? inFlight.run(input.competitionId, chosen, owner, hold) : hold();
}
