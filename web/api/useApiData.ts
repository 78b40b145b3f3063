import { useCallback, useEffect, useRef, useState } from 'react';
import { pageSeed, takeSeededAnswer } from '../ssr/seed';
import { apiGet } from './client';

export interface ApiData<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
  reload: () => void;
}

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(t);
      resolve();
    });
  });

/**
 * Loads JSON from `path` (null = nothing to load), retrying failed loads `retries` times. An answer
 * the server rendered the page with (web/ssr/seed.ts) is the first render's data, taken once: no
 * loading state and no request for it.
 */
export function useApiData<T>(path: string | null, { retries = 1, retryDelayMs = 1000 } = {}): ApiData<T> {
  const [state, setState] = useState<{ data?: T; error?: Error; loading: boolean }>(() => {
    const api = pageSeed()?.api;
    return path !== null && api && path in api
      ? { data: api[path] as T, loading: false }
      : { loading: path !== null };
  });
  // The path whose answer came from the seed, until the first effect has taken it.
  const seeded = useRef(path !== null && state.data !== undefined ? path : null);
  const [attempt, setAttempt] = useState(0);
  const reload = useCallback(() => setAttempt((n) => n + 1), []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the reload trigger
  useEffect(() => {
    if (path === null) return;
    if (seeded.current !== null) {
      const taken = seeded.current === path;
      seeded.current = null;
      if (taken) {
        takeSeededAnswer(path);
        return;
      }
    }
    const controller = new AbortController();
    setState((s) => ({ data: s.data, loading: true }));
    (async () => {
      for (let i = 0; ; i++) {
        try {
          const data = await apiGet<T>(path, controller.signal);
          if (!controller.signal.aborted) setState({ data, loading: false });
          return;
        } catch (err) {
          if (controller.signal.aborted) return;
          const status = (err as { status?: number }).status;
          // A 4xx will not change on retry.
          if (i >= retries || (status !== undefined && status < 500)) {
            setState({ error: err as Error, loading: false });
            return;
          }
          await wait(retryDelayMs, controller.signal);
        }
      }
    })();
    return () => controller.abort();
  }, [path, retries, retryDelayMs, attempt]);

  return { data: state.data, error: state.error, loading: state.loading, reload };
}
