import { describe, expect, it } from 'vitest';
import type { PublicCompetition } from '../../contract/competitions';
import { cardBadges } from '../../web/components/competitions/cardBadges';
import { openingSoon } from '../../web/components/competitions/OpeningSoon';

const NOW = Date.parse('2026-11-28T12:00:00Z');
const DAY = 86_400_000;
const competition = (id: number, startsAt: number | null) =>
  ({
    id,
    startsAt: startsAt === null ? null : new Date(startsAt).toISOString(),
    prizes: [],
    instantWinCommitment: null,
    ticketsSold: 0,
    totalTickets: 100,
    endDate: new Date(NOW + 30 * DAY).toISOString(),
  }) as unknown as PublicCompetition;

describe("the home page's 'Opening soon' row", () => {
  it('lists what opens within 7 days, soonest first; not what is open, nor what opens later', () => {
    const list = [
      competition(1, null),
      competition(2, NOW - 1000),
      competition(3, NOW + 3 * DAY),
      competition(4, NOW + 1 * DAY),
      competition(5, NOW + 7 * DAY),
      competition(6, NOW + 8 * DAY),
    ];
    expect(openingSoon(list, NOW).map((c) => c.id)).toEqual([4, 3, 5]);
  });

  it("a scheduled competition's card says when it opens (UK time), and an open one's does not", () => {
    const opens = cardBadges(competition(1, Date.parse('2026-11-28T19:00:00Z')), NOW);
    expect(opens).toContainEqual({ kind: 'opens', text: 'Opens 28 Nov at 19:00' });
    expect(cardBadges(competition(2, NOW - 1000), NOW).map((b) => b.kind)).not.toContain('opens');
  });
});
