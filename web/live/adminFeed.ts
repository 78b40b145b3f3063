import { useEffect } from 'react';
import { create } from 'zustand';
import type { AdminOrderView, AdminStats, OrderChange } from '../../contract/checkout';
import type { InstantWinClaimedEvent } from '../../contract/realtime';
import type { AdminLiveEvent } from '../../contract/salesStats';
import { getSocket } from './socket';

/** One order on the dashboard's feed, with the last thing that happened to it. */
export interface FeedEntry {
  order: AdminOrderView;
  change: OrderChange | 'listed';
  /** When this browser heard about it (ms), for the "just now" highlight. */
  receivedAt: number;
}

interface AdminFeedState {
  /** The latest counts pushed by `admin:stats` (undefined until the first push). */
  stats: AdminStats | undefined;
  /** The live tiles' figures pushed by `admin:live` (undefined until the first push). */
  live: AdminLiveEvent | undefined;
  /** Bumped by every order event that moves the sales figures: the charts read their data again. */
  salesChanges: number;
  entries: FeedEntry[];
  /** Seeds the feed with the newest orders from the list, without undoing live updates. */
  seed: (orders: AdminOrderView[]) => void;
}

export const FEED_LENGTH = 20;

export const useAdminFeed = create<AdminFeedState>((set) => ({
  stats: undefined,
  live: undefined,
  salesChanges: 0,
  entries: [],
  seed: (orders) =>
    set((s) => {
      const known = new Set(s.entries.map((e) => e.order.id));
      const listed = orders
        .filter((o) => !known.has(o.id))
        .map((order) => ({ order, change: 'listed' as const, receivedAt: 0 }));
      return { entries: [...s.entries, ...listed].slice(0, FEED_LENGTH) };
    }),
}));

let listeners = 0;
const onStats = (stats: AdminStats) => useAdminFeed.setState({ stats });
const onLive = (live: AdminLiveEvent) => useAdminFeed.setState({ live });
// A sale counts once paid and stops counting once cancelled or refunded.
const MOVES_SALES = new Set<OrderChange>(['paid', 'cancelled', 'refunded']);
const onOrder = ({ order, change }: { order: AdminOrderView; change: OrderChange }) =>
  // The newest event for an order replaces its line and moves it to the top.
  useAdminFeed.setState((s) => ({
    salesChanges: s.salesChanges + (MOVES_SALES.has(change) ? 1 : 0),
    entries: [
      { order, change, receivedAt: Date.now() },
      ...s.entries.filter((e) => e.order.id !== order.id),
    ].slice(0, FEED_LENGTH),
  }));

/**
 * Listens to the `admins` room's pushes while a component is mounted. The server puts the socket
 * in that room at the handshake (role read from the database), so nothing is emitted here.
 */
export function useAdminLive(): void {
  useEffect(() => {
    const socket = getSocket();
    if (listeners++ === 0) {
      socket.on('admin:stats', onStats);
      socket.on('admin:order', onOrder);
      socket.on('admin:live', onLive);
    }
    return () => {
      if (--listeners === 0) {
        socket.off('admin:stats', onStats);
        socket.off('admin:order', onOrder);
        socket.off('admin:live', onLive);
      }
    };
  }, []);
}

/**
 * Calls `onClaimed` on each `instant-win:claimed` of this competition pushed to the admins' room
 * (docs/draws.md#instant-wins), so an admin page can read the winners again.
 */
export function useInstantWinClaims(competitionId: number | undefined, onClaimed: () => void): void {
  useEffect(() => {
    if (competitionId === undefined) return;
    const socket = getSocket();
    const onClaim = (e: InstantWinClaimedEvent) => {
      if (e.competitionId === competitionId) onClaimed();
    };
    socket.on('instant-win:claimed', onClaim);
    return () => {
      socket.off('instant-win:claimed', onClaim);
    };
  }, [competitionId, onClaimed]);
}
