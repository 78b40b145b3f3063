import { useEffect } from 'react';
import { create } from 'zustand';
import type { DrawPendingEvent, DrawResultEvent } from '../../contract/realtime';
import { serverNow } from './clock';
import { watchCompetition } from './competitionStore';
import { getSocket } from './socket';

/**
 * A draw seen live on this page: `draw:started` then `draw:result` to the competition's room
 * (docs/draws.md). Only what arrived while watching; a page loaded later reads the competition's
 * own `draw` field instead.
 */
export interface LiveDraw {
  startedAt: number;
  result?: DrawResultEvent & { receivedAt: string };
}

export const useLiveDraws = create<{ byId: Record<number, LiveDraw | undefined> }>(() => ({ byId: {} }));

/** `draw:pending` seen while watching: the entries became final and the beacon round was fixed. */
export const useDrawPendings = create<{ byId: Record<number, DrawPendingEvent | undefined> }>(() => ({
  byId: {},
}));

let listening = false;

function listen() {
  if (listening) return;
  listening = true;
  const socket = getSocket();
  const set = (id: number, draw: LiveDraw) =>
    useLiveDraws.setState((s) => ({ byId: { ...s.byId, [id]: draw } }));
  socket.on('draw:pending', (e) =>
    useDrawPendings.setState((s) => ({ byId: { ...s.byId, [e.competitionId]: e } })),
  );
  socket.on('draw:started', ({ competitionId }) => {
    if (!useLiveDraws.getState().byId[competitionId]?.result) set(competitionId, { startedAt: Date.now() });
  });
  socket.on('draw:result', (e) => {
    const before = useLiveDraws.getState().byId[e.competitionId];
    // A result without its start (missed, or a reconnect in between) still gets its reveal.
    set(e.competitionId, {
      startedAt: before?.startedAt ?? Date.now(),
      result: { ...e, receivedAt: new Date(serverNow()).toISOString() },
    });
  });
}

/** The live draw of a competition while the calling component is mounted (it joins the room). */
export function useLiveDraw(id: number | undefined): LiveDraw | undefined {
  useEffect(() => {
    if (!id) return;
    listen();
    return watchCompetition(id);
  }, [id]);
  return useLiveDraws((s) => (id ? s.byId[id] : undefined));
}

/** The `draw:pending` of a competition seen while watching it (mount `useLiveDraw` too). */
export const useDrawPending = (id: number | undefined): DrawPendingEvent | undefined =>
  useDrawPendings((s) => (id ? s.byId[id] : undefined));
