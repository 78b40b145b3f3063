import { create } from 'zustand';
import type { CartItemView } from '../../contract/cart';

/** A cart line whose hold ran out: what it held, so the cart can say so and offer it again. */
export interface ReleasedHold {
  itemId: number;
  competitionId: number;
  title: string;
  numbers: number[];
  /** A Lucky Dip line is tried again as a Lucky Dip of the same size, not as chosen numbers. */
  luckyDip: boolean;
}

interface ReleasedState {
  holds: ReleasedHold[];
  /** The outcome of the last 'Try to hold them again', one sentence per line. */
  report: string[];
}

export const useReleasedHolds = create<ReleasedState>(() => ({ holds: [], report: [] }));

/** Records lines that left the cart because their hold expired (once each, whichever signal comes first). */
export function noteReleased(items: readonly CartItemView[]): void {
  if (!items.length) return;
  useReleasedHolds.setState((s) => {
    const known = new Set(s.holds.map((h) => h.itemId));
    const fresh = items
      .filter((i) => !known.has(i.id))
      .map((i) => ({
        itemId: i.id,
        competitionId: i.competitionId,
        title: i.competition.title,
        numbers: [...i.heldNumbers].sort((a, b) => a - b),
        luckyDip: i.selectedNumbers.length === 0,
      }));
    return fresh.length ? { holds: [...s.holds, ...fresh], report: [] } : s;
  });
}

export const clearReleased = () => useReleasedHolds.setState({ holds: [], report: [] });
