import type { AdminQueueView } from '../../../contract/launchQueue';
import type { CartOwnerRef } from '../../platform/events';

// The launch queue's events (docs/draws.md#launch-queue); realtime/projections/launchQueue.ts sends
// each to the visitor's own rooms (or the admins').
declare module '../../platform/events' {
  interface DomainEvents {
    'queue.admitted': { competitionId: number; owner: CartOwnerRef; expiresAt: number };
    'queue.positions': {
      competitionId: number;
      places: Array<{ owner: CartOwnerRef; position: number; ahead: number; etaSeconds: number }>;
    };
    'queue.stats': { view: AdminQueueView };
  }
}
