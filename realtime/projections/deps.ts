import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { EventBus } from '../../api/platform/events';
import type { Broadcaster } from '../broadcaster';

/**
 * What a projection (a domain's events turned into socket events on the right rooms) works with.
 * Events carry rows; a projection presents them, as routes present what services return.
 */
export interface ProjectionDeps extends Broadcaster {
  db: Knex;
  events: EventBus;
  logger: Logger;
  /** Whether anyone may be listening in `rooms`: here, or on another process (through Redis). */
  mayBeListening: (rooms: string[]) => Promise<boolean>;
  /** Disconnects every socket of `room`, on every process. */
  disconnectRoom: (room: string) => void;
}
