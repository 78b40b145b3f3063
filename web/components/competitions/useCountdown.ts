import { useEffect, useState } from 'react';
import { serverNow } from '../../live/clock';

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

/** Time left until `endIso` on the server clock, updated every second; zeros once it has passed. */
export function useCountdown(endIso: string): Remaining {
  const end = Date.parse(endIso);
  const [left, setLeft] = useState(() => remainingUntil(end, serverNow()));
  useEffect(() => {
    setLeft(remainingUntil(end, serverNow()));
    const timer = setInterval(() => setLeft(remainingUntil(end, serverNow())), 1000);
    return () => clearInterval(timer);
  }, [end]);
  return left;
}
