import type { Logger } from 'pino';
import { purgeExpiredSessions } from '../platform/sessions';
import { type ReservationDeps, sweepExpired } from './reservations';

/**
 * Releases expired holds every `intervalMs` (and, once a minute or so, deletes expired sessions).
 * Runs in every process; both are safe to run concurrently (each release is published once, by
 * whichever process deleted it).
 */
export function startSweeper(deps: ReservationDeps, logger: Logger, intervalMs: number): () => void {
  if (intervalMs <= 0) return () => undefined;
  let running = false;
  let lastSessionPurge = 0;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      const released = await sweepExpired(deps);
      if (released) logger.info({ released }, 'released expired holds');
      if (Date.now() - lastSessionPurge >= 60_000) {
        lastSessionPurge = Date.now();
        const purged = await purgeExpiredSessions(deps.db);
        if (purged) logger.info({ purged }, 'deleted expired sessions');
      }
    } catch (err) {
      logger.error({ err }, 'sweeping expired holds failed');
    } finally {
      running = false;
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
