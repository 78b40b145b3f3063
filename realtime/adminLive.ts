import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { liveSalesFigures } from '../api/orders/salesStats';
import type { EventBus } from '../api/platform/events';
import type { Broadcast } from './broadcaster';
import { ADMINS_ROOM } from './rooms';

/** What the live tiles need from the Socket.IO server (kept narrow: realtime/projections/index.ts builds it). */
export interface LiveSockets {
  broadcast: Broadcast;
  /** Sockets connected to this process. */
  count: () => number;
  /** Whether any admin may be listening (here, or on another process). */
  adminsListening: () => Promise<boolean>;
  /** Calls back whenever a socket connects or disconnects. */
  onConnectionsChange: (callback: () => void) => void;
}

/** At most one `admin:live` per this many ms from a process, however busy it is. */
export const ADMIN_LIVE_INTERVAL_MS = 1000;

/**
 * The dashboard's live tiles: after a hold, release, sale, order change, or a socket connecting
 * or leaving, `admin:live` goes to the admins room with fresh figures. Changes are gathered for
 * up to a second, so a burst of holds costs the database one pair of counts, and nothing is read
 * while no admin is listening.
 */
export function startAdminLive(
  { db, events, logger }: { db: Knex; events: EventBus; logger: Logger },
  sockets: LiveSockets,
): void {
  let timer: NodeJS.Timeout | undefined;
  const send = async () => {
    timer = undefined;
    if (events.closed) return;
    try {
      if (!(await sockets.adminsListening())) return;
      const figures = await liveSalesFigures(db);
      if (events.closed) return;
      sockets.broadcast(ADMINS_ROOM, 'admin:live', { ...figures, socketsConnected: sockets.count() });
    } catch (err) {
      logger.error({ err }, 'admin live figures push failed');
    }
  };
  const soon = () => {
    if (timer || events.closed) return;
    timer = setTimeout(() => void send(), ADMIN_LIVE_INTERVAL_MS);
    timer.unref();
  };
  for (const type of ['tickets.reserved', 'tickets.released', 'tickets.purchased', 'order.changed'] as const)
    events.subscribe(type, soon);
  sockets.onConnectionsChange(soon);
}
