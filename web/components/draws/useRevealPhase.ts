import { useEffect, useState } from 'react';
import type { LiveDraw } from '../../live/drawStore';

/** How long the reveal runs before the winner shows (none with reduced motion). */
export const REVEAL_MS = 3000;

export type RevealPhase = 'none' | 'drawing' | 'revealed';

/**
 * Where a draw seen live stands: 'drawing' from `draw:started` until the result is in and the
 * reveal has run its course, then 'revealed'. 'none' when no draw happened while watching.
 */
export function useRevealPhase(live: LiveDraw | undefined, reducedMotion: boolean): RevealPhase {
  const until = live ? live.startedAt + (reducedMotion ? 0 : REVEAL_MS) : 0;
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const left = until - Date.now();
    if (left <= 0) return;
    const timer = setTimeout(() => setNow(Date.now()), left);
    return () => clearTimeout(timer);
  }, [until]);
  if (!live) return 'none';
  return !live.result || Math.max(now, Date.now()) < until ? 'drawing' : 'revealed';
}
