import { useEffect } from 'react';
import { create } from 'zustand';

/**
 * A number the visitor clicked on the competition page's entries grid, for the page's buying
 * controls to open the selector with it picked. `seq` tells two clicks on one number apart.
 */
export const usePickRequest = create<{ request: { competitionId: number; n: number; seq: number } | null }>(
  () => ({ request: null }),
);

export function requestPick(competitionId: number, n: number): void {
  const seq = (usePickRequest.getState().request?.seq ?? 0) + 1;
  usePickRequest.setState({ request: { competitionId, n, seq } });
}

/** Calls `pick` with each number clicked on this competition's grid, once per click. */
export function useGridPicks(competitionId: number, pick: (n: number) => void): void {
  const request = usePickRequest((s) => s.request);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per click
  useEffect(() => {
    if (request?.competitionId !== competitionId) return;
    usePickRequest.setState({ request: null }); // handled: a later visit does not replay it
    pick(request.n);
  }, [request?.seq]);
}
