import type { Logger } from 'pino';
import { type ReservationDeps, sweepExpired } from '../services/reservations';

/**
 * Releases expired holds every `intervalMs`. Runs in every process; sweepExpired is safe to run
 * concurrently (each release is published once, by whichever process deleted it).
 */
export function startSweeper(deps: ReservationDeps, logger: Logger, intervalMs: number): () => void {
  if (intervalMs <= 0) return () => undefined;
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      const released = await sweepExpired(deps);
      if (released) logger.info({ released }, 'released expired holds');
    } catch (err) {
      logger.error({ err }, 'sweeping expired holds failed');
    } finally {
      running = false;
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
