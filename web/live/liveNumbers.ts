// A live competition's changes for the grids (not in the first load): a cell re-renders when its
// own number changes, not the page holding the competition.
import { useCallback, useSyncExternalStore } from 'react';
import { type LiveCompetition, type NumberState, numberState, publishedChanges } from './competitionStore';

/** Listeners by `${competitionId}` (any change) and `${competitionId}:${n}` (one number's cells). */
const listeners = new Map<string, Set<() => void>>();

const notify = (key: string) => {
  for (const onChange of listeners.get(key) ?? []) onChange();
};

publishedChanges.add((id, numbers) => {
  for (const n of numbers) notify(`${id}:${n}`);
  notify(`${id}`);
});

/**
 * Calls `onChange` after each published change to competition `id`, or with `n` only to its
 * number n; returns the unsubscribe.
 */
export function subscribeLive(onChange: () => void, id: number, n?: number): () => void {
  const key = n === undefined ? `${id}` : `${id}:${n}`;
  const set = listeners.get(key) ?? new Set();
  listeners.set(key, set.add(onChange));
  return () => {
    set.delete(onChange);
    if (!set.size && listeners.get(key) === set) listeners.delete(key);
  };
}

const unsubscribed = () => undefined;

/**
 * A stable subscribe function (for useSyncExternalStore) to competition `id`'s changes, or with `n`
 * to its number n's; without an id it subscribes to nothing.
 */
export function useLiveSubscription(id: number | undefined, n?: number) {
  return useCallback(
    (onChange: () => void) => (id === undefined ? unsubscribed : subscribeLive(onChange, id, n)),
    [id, n],
  );
}

/**
 * Number n's state in `live`, re-rendering the caller (a cell) when that number changes; undefined
 * without live state. A `live` not in the store (a test's) is read as it is.
 */
export function useNumberState(live: LiveCompetition | undefined, n: number): NumberState | undefined {
  const subscribe = useLiveSubscription(live?.competitionId, n);
  const get = () => (live ? numberState(live, n) : undefined);
  return useSyncExternalStore(subscribe, get, get);
}

/** `live.rev`, re-rendering the caller at every published change; 0 without live state or when off. */
export function useLiveRev(live: LiveCompetition | undefined, on = true): number {
  const subscribe = useLiveSubscription(on ? live?.competitionId : undefined);
  const get = () => (on && live ? live.rev : 0);
  return useSyncExternalStore(subscribe, get, get);
}
