import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { EventBus } from '../../api/platform/events';
import { startAdminLive } from '../adminLive';
import type { Broadcaster } from '../broadcaster';
import { ADMINS_ROOM } from '../rooms';
import type { RealtimeServer } from '../sockets';
import { projectCarts } from './carts';
import { projectCompetitions } from './competitions';
import type { ProjectionDeps } from './deps';
import { projectDraws } from './draws';
import { projectInstantWins } from './instantWins';
import { projectLaunchQueue } from './launchQueue';
import { projectNumberAlerts } from './numberAlerts';
import { projectOrders } from './orders';
import { projectSessions } from './sessions';
import { projectTickets } from './tickets';

/** Subscribes every domain's projection to the event bus (domain events to socket events). */
export function startProjections(
  io: RealtimeServer,
  { db, events, logger }: { db: Knex; events: EventBus; logger: Logger },
  { broadcast, batcher }: Broadcaster,
): void {
  const deps: ProjectionDeps = {
    db,
    events,
    logger,
    broadcast,
    batcher,
    mayBeListening: async (rooms) =>
      rooms.some((room) => (io.sockets.adapter.rooms.get(room)?.size ?? 0) > 0) ||
      (await io.sockets.adapter.serverCount()) > 1,
    disconnectRoom: (room) => io.in(room).disconnectSockets(true),
  };
  projectTickets(deps);
  projectCompetitions(deps);
  projectDraws(deps);
  projectInstantWins(deps);
  projectCarts(deps);
  projectLaunchQueue(deps);
  projectOrders(deps);
  projectNumberAlerts(deps);
  startAdminLive(
    { db, events, logger },
    {
      broadcast,
      count: () => io.of('/').sockets.size,
      adminsListening: () => deps.mayBeListening([ADMINS_ROOM]),
      onConnectionsChange: (callback) =>
        io.on('connection', (socket) => {
          callback();
          socket.on('disconnect', callback);
        }),
    },
  );
  projectSessions(deps);
}
