import { EventEmitter } from 'node:events';
import type { OrderChange } from '../../contract/checkout';
import type { Competition } from '../../db/models';

/**
 * Domain events, recorded in a unit of work and published only after its COMMIT, then presented
 * and mapped to socket events by realtime/. They carry data, never presented JSON. A domain whose
 * events carry its own types declares them in its own events.ts (declaration merging), as
 * api/draws/events.ts does.
 */
export interface CartOwnerRef {
  guestId: string;
  userId: number | null;
}

export interface DomainEvents {
  /** A session was signed in (replaced) or signed out: its sockets must re-authenticate. */
  'session.ended': { sessionKey: string };
  /** Ticket changes; `version` is the competition's version after the change. */
  'tickets.reserved': { competitionId: number; version: number; numbers: number[] };
  'tickets.released': { competitionId: number; version: number; numbers: number[] };
  'tickets.purchased': { competitionId: number; version: number; numbers: number[]; ticketsSold: number };
  /** The competition row after a change (edit, close, draw, delete), with its new version. */
  'competition.updated': { competition: Competition; version: number; deleted?: true };
  /** A competition went on sale (created active, or an archived one made active): 'new competition live'. */
  'competition.opened': { competitionId: number; openedAt: number };
  /**
   * A competition's ending-soon campaign was made (once per competition): the e-mails are owed, and
   * a web push to the same audience (`endingSoonRecipients`, api/accounts/marketing/) can follow.
   */
  'competition.endingSoon': { competitionId: number; campaignId: number };
  /** Someone's cart changed (another tab, expiry): push them their cart; `revision` orders carts. */
  'cart.changed': { owner: CartOwnerRef; revision: number };
  'cart.expired': { owner: CartOwnerRef; itemIds: number[] };
  /** Numbers a visitor asked to hear about were released (api/tickets/alerts): tell that visitor. */
  'numbers.freed': { competitionId: number; owner: CartOwnerRef; numbers: number[] };
  /** An order was created, paid, failed, cancelled or refunded (admins watch orders live). */
  'order.changed': { orderId: number; change: OrderChange };
}

export class EventBus {
  private emitter = new EventEmitter();
  private stopped = false;

  publish<K extends keyof DomainEvents>(type: K, payload: DomainEvents[K]): void {
    if (!this.stopped) this.emitter.emit(type, payload);
  }

  /**
   * Shutdown: nothing is delivered any more. Called before Socket.IO and Redis close, so a late
   * event (an in-flight request or sweep) is not broadcast over a connection that is closing.
   * Async subscribers check `closed` again after their awaits.
   */
  close(): void {
    this.stopped = true;
    this.emitter.removeAllListeners();
  }

  get closed(): boolean {
    return this.stopped;
  }

  subscribe<K extends keyof DomainEvents>(type: K, handler: (payload: DomainEvents[K]) => void): () => void {
    this.emitter.on(type, handler);
    return () => this.emitter.off(type, handler);
  }
}
