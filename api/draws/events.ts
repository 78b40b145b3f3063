import type { DrawRecord } from './presenter';

// The draw's events carry the draw record; realtime/ presents it.
declare module '../platform/events' {
  interface DomainEvents {
    /** A competition is being drawn; its result follows in the same unit (docs/draws.md). */
    'draw.started': { competitionId: number };
    'draw.result': { record: DrawRecord };
  }
}
