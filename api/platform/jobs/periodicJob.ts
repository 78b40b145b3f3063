/**
 * Runs `run` every `intervalMs` (and once at once with `runNow`), never two runs at a time: a tick
 * that comes while the last run is still going is skipped. The returned stop waits for a run in
 * progress, so a shutdown can close the database after it. `intervalMs` 0 means no timer.
 */
export function startPeriodicJob(
  intervalMs: number,
  run: () => Promise<void>,
  { runNow = false } = {},
): () => Promise<void> {
  let current: Promise<void> | undefined;
  let stopped = false;
  const tick = () => {
    if (current || stopped) return;
    current = run().finally(() => {
      current = undefined;
    });
  };
  if (runNow) tick();
  const timer = intervalMs > 0 ? setInterval(tick, intervalMs) : undefined;
  timer?.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await current;
  };
}
