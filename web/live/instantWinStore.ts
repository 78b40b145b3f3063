import * as v from 'valibot';
import { create } from 'zustand';
import type { PublicInstantWin } from '../../contract/instantWins';
import { InstantWinClaimedEventSchema } from '../../contract/realtime';
import { getSocket } from './socket';

// Instant wins claimed since the competition page loaded (`instant-win:claimed` on the rooms of
// watched competitions), laid over the page's list until a newer whole list arrives.

type Claim = { number: number; prizeTitle: string; winnerDisplayName: string };

const useClaims = create<{ byId: Record<number, Claim[] | undefined> }>(() => ({ byId: {} }));

let listening = false;

function listen() {
  if (listening) return;
  listening = true;
  const socket = getSocket();
  socket.on('instant-win:claimed', (e: unknown) => {
    if (!v.is(InstantWinClaimedEventSchema, e)) return;
    const { competitionId: id, ...claim } = e;
    useClaims.setState((s) => ({ byId: { ...s.byId, [id]: [...(s.byId[id] ?? []), claim] } }));
  });
  // competition:updated with instantWins is the whole list as it stands: earlier claims are in it.
  socket.on('competition:updated', (e) => {
    if (!Array.isArray(e.instantWins)) return;
    useClaims.setState((s) => ({ byId: { ...s.byId, [e.competitionId]: undefined } }));
  });
}

/** The list with each live claim marking its prize won: the same number, else a line of that title not yet won. */
export function withClaims(list: readonly PublicInstantWin[], claims: readonly Claim[]): PublicInstantWin[] {
  const out = [...list];
  for (const claim of claims) {
    if (out.some((w) => w.won && w.number === claim.number)) continue;
    const i = out.findIndex((w) => !w.won && !w.retired && w.title === claim.prizeTitle);
    if (i < 0) continue;
    out[i] = { ...out[i]!, won: true, number: claim.number, winnerDisplayName: claim.winnerDisplayName };
  }
  return out;
}

/** The competition's instant wins as they stand now (the page's copy plus live claims). */
export function useLiveInstantWins(id: number, list: readonly PublicInstantWin[]): PublicInstantWin[] {
  listen();
  const claims = useClaims((s) => s.byId[id]);
  return claims ? withClaims(list, claims) : [...list];
}
