import type { LiveCompetition } from '../../live/competitionStore';

/** What the visitor may still pick under the per-person cap, counting the numbers they hold. */
export function roomUnderCap(cap: number, live: LiveCompetition | undefined) {
  const own = live?.mine.size ?? 0;
  return { own, room: Math.max(0, cap - own) };
}

/** Why a number cannot be picked once the cap is reached, in the customer's words. */
export const capReason = (cap: number, own: number) =>
  `The limit is ${cap} tickets per person${own ? ` and you already hold ${own}` : ''}.`;
