import type { PublicCompetition } from '../../../contract/competitions';
import { formatOpensShort, londonDayOf } from '../../../contract/londonTime';
import { winnerCount } from '../../../contract/prizes';

export type CardBadgeKind = 'opens' | 'winners' | 'instant' | 'sold' | 'ends';

export interface CardBadge {
  kind: CardBadgeKind;
  text: string;
}

/**
 * What a card says beside its draw type (docs/product.md "Prizes on show"): how many win the main
 * draw when more than one, that there are instant wins, how much has sold (from 1%), and that it
 * ends today (UK date) while it is still open.
 */
export function cardBadges(
  c: Pick<PublicCompetition, 'prizes' | 'instantWinCommitment' | 'ticketsSold' | 'totalTickets' | 'endDate'> &
    Partial<Pick<PublicCompetition, 'startsAt'>>,
  now: number,
): CardBadge[] {
  const badges: CardBadge[] = [];
  // A scheduled launch not open yet (docs/product.md#drafts-and-scheduled-launches).
  if (c.startsAt && Date.parse(c.startsAt) > now)
    badges.push({ kind: 'opens', text: `Opens ${formatOpensShort(c.startsAt)}` });
  const winners = winnerCount(c.prizes);
  if (winners > 1) badges.push({ kind: 'winners', text: `${winners} winners` });
  if (c.instantWinCommitment) badges.push({ kind: 'instant', text: 'Instant wins' });
  const percent = c.totalTickets > 0 ? Math.floor((c.ticketsSold / c.totalTickets) * 100) : 0;
  if (percent >= 1) badges.push({ kind: 'sold', text: `${Math.min(100, percent)}% sold` });
  const end = Date.parse(c.endDate);
  if (end > now && londonDayOf(end) === londonDayOf(now)) badges.push({ kind: 'ends', text: 'Ends today' });
  return badges;
}
