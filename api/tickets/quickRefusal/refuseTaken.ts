import type { Knex } from 'knex';
import type { AddToCartInput } from '../../../contract/cart';
import type { CartOwner } from '../cartQueries';
import { assertMayPlay, numbersTaken, openCompetition, takenFromOthers } from '../holdChecks';
import type { HoldsInFlight } from './holdsInFlight';
import type { RecentlyOpen } from './recentlyOpen';

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
