import type { Knex } from 'knex';
import type { Competition } from '../../../db/models';
import { openCompetition } from '../holdChecks';

// How long the quick refusal trusts a competition it found open. A hot number's losers all ask
// about the same row; a second out of date changes at most which 409 a taken number hears, since
// that "open" is never the last word (RecentlyOpen).
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
