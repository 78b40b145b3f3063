import { useEffect, useState } from 'react';
import { serverNow } from '../../../live/clock';

/** The reveal's pace: a lead for the slowest viewer's event to arrive, then one step at a time. */
export const REVEAL_LEAD_MS = 2000;
export const REVEAL_STEP_MS = 2500;

/**
 * How many of `count` steps are due: step k at `anchor + k * stepMs` on the server clock. Every
 * viewer's clock follows the server's (web/live/clock.ts), so every page shows a step in the same
 * second, however late its copy of the event came. One timer per step, not a tick.
 */
export function useServerSchedule(anchor: number | null, count: number, stepMs = REVEAL_STEP_MS): number {
  const due = () =>
    anchor === null ? count : Math.max(0, Math.min(count, Math.floor((serverNow() - anchor) / stepMs) + 1));
  const [shown, setShown] = useState(due);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `due` reads only anchor, count and stepMs
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const next = () => {
      const now = due();
      setShown(now);
      if (anchor !== null && now < count) timer = setTimeout(next, anchor + now * stepMs - serverNow() + 5);
    };
    next();
    return () => clearTimeout(timer);
  }, [anchor, count, stepMs]);
  return shown;
}
