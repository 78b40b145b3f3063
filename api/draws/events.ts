import type { DrawRecord } from './presenter';

// The draw's events carry the draw record; realtime/ presents it.
declare module '../platform/events' {
  interface DomainEvents {
    /** A competition is being drawn; its result follows in the same unit (docs/draws.md). */
    'draw.started': { competitionId: number };
    'draw.result': { record: DrawRecord };
    /** The entries became final and the round was fixed (epoch ms): published at once. */
    'draw.pending': {
      competitionId: number;
      round: number;
      expectedAt: number;
      entriesFinalAt: number;
      delayMs: number;
    };
  }
}
