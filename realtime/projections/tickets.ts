import type { ProjectionDeps } from './deps';

/** Holds, releases and sales become `tickets:*` (or `tickets:batch` under a burst) to the competition room. */
export function projectTickets({ events, batcher }: ProjectionDeps): void {
  events.subscribe('tickets.reserved', ({ competitionId, version, numbers }) =>
    batcher.push(competitionId, { type: 'reserved', version, numbers }),
  );
  events.subscribe('tickets.released', ({ competitionId, version, numbers }) =>
    batcher.push(competitionId, { type: 'released', version, numbers }),
  );
  events.subscribe('tickets.purchased', ({ competitionId, version, numbers, ticketsSold }) =>
    batcher.push(competitionId, { type: 'purchased', version, numbers, ticketsSold }),
  );
}
