import { useEffect } from 'react';
import * as v from 'valibot';
import { create } from 'zustand';
import { CompetitionOpenedEventSchema } from '../../contract/realtime';
import { useHasPassed } from '../components/competitions/useHasPassed';
import { getSocket } from './socket';

// Scheduled launches (docs/product.md#drafts-and-scheduled-launches): a page unlocks at the opening
// on the server clock, which every page shares, and on `competition:opened`, whichever is first.

const useOpenings = create<{ opened: Record<number, true | undefined> }>(() => ({ opened: {} }));
let listening = false;

function listen() {
  if (listening) return;
  listening = true;
  getSocket().on('competition:opened', (event: unknown) => {
    if (!v.is(CompetitionOpenedEventSchema, event)) return;
    useOpenings.setState((s) => ({ opened: { ...s.opened, [event.competitionId]: true } }));
  });
}

/** Whether the competition takes holds as far as its opening goes (true without a `startsAt`). */
export function useIsOpen(competitionId: number, startsAt: string | null | undefined): boolean {
  useEffect(listen, []);
  const passed = useHasPassed(startsAt ?? undefined);
  const told = useOpenings((s) => Boolean(s.opened[competitionId]));
  return !startsAt || passed || told;
}
