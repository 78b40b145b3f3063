import { useEffect, useState } from 'react';
import { serverNow } from '../../live/clock';
import { renderTime, useHydrated } from '../../ssr/seed';

// setTimeout holds at most 2^31 - 1 ms (about 24.8 days); further dates wait in steps.
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * True once `iso` has passed on the server clock. One timer, not a tick per second, so a page
 * holding a big grid does not re-render every second for it.
 */
export function useHasPassed(iso: string | undefined): boolean {
  const at = iso ? Date.parse(iso) : Number.NaN;
  const hydrated = useHydrated();
  const [passed, setPassed] = useState(() => Number.isFinite(at) && serverNow() >= at);
  useEffect(() => {
    if (!Number.isFinite(at)) return;
    let timer: ReturnType<typeof setTimeout>;
    const check = () => {
      const left = at - serverNow();
      setPassed(left <= 0);
      if (left > 0) timer = setTimeout(check, Math.min(left + 50, MAX_TIMEOUT_MS));
    };
    check();
    return () => clearTimeout(timer);
  }, [at]);
  // A server-rendered page: as at the server's render until hydrated.
  return hydrated ? passed : Number.isFinite(at) && renderTime() >= at;
}
