import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { EventBus } from '../../platform/events';
import { takeFreedAlerts } from './numberAlerts';

/**
 * After a release is committed, the visitors waiting on those numbers are told once
 * (`numbers.freed`, which realtime sends to their own rooms). One indexed read per release when
 * nobody waits. Returns the unsubscribe.
 */
export function startNumberAlerts({ db, events, logger }: { db: Knex; events: EventBus; logger: Logger }) {
  return events.subscribe('tickets.released', async ({ competitionId, numbers }) => {
    try {
      const freed = await takeFreedAlerts(db, competitionId, numbers, Date.now());
      if (events.closed) return;
      for (const { owner, numbers: mine } of freed)
        events.publish('numbers.freed', { competitionId, owner, numbers: mine });
    } catch (err) {
      logger.error({ err, competitionId }, 'number alerts failed');
    }
  });
}
