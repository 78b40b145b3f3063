import { useEffect, useState } from 'react';
import { serverNow } from '../../live/clock';
import { renderTime, useHydrated } from '../../ssr/seed';

export interface Remaining {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
  done: boolean;
}

export function remainingUntil(endMs: number, nowMs: number): Remaining {
  const total = Math.max(0, Math.floor((endMs - nowMs) / 1000));
  return {
    days: Math.floor(total / 86_400),
    hours: Math.floor((total % 86_400) / 3600),
    minutes: Math.floor((total % 3600) / 60),
    seconds: total % 60,
    done: total === 0,
  };
}

/**
 * Time left until `endIso` on the server clock, updated every second; zeros once it has passed.
 * A server-rendered page shows the time left at its render until hydrated (the same text).
 */
export function useCountdown(endIso: string): Remaining {
  const end = Date.parse(endIso);
  const hydrated = useHydrated();
  const [left, setLeft] = useState(() => remainingUntil(end, serverNow()));
  useEffect(() => {
    setLeft(remainingUntil(end, serverNow()));
    const timer = setInterval(() => setLeft(remainingUntil(end, serverNow())), 1000);
    return () => clearInterval(timer);
  }, [end]);
  return hydrated ? left : remainingUntil(end, renderTime());
}
