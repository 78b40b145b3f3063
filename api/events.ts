import { EventEmitter } from 'node:events';

/**
 * Domain events, published by services only after their transaction has committed, and mapped
 * to socket events by realtime/. Later features add their events here.
 */
export interface DomainEvents {
  /** A session was signed in (replaced) or signed out: its sockets must re-authenticate. */
  'session.ended': { sessionKey: string };
}

export class EventBus {
  private emitter = new EventEmitter();

  publish<K extends keyof DomainEvents>(type: K, payload: DomainEvents[K]): void {
    this.emitter.emit(type, payload);
  }

  subscribe<K extends keyof DomainEvents>(type: K, handler: (payload: DomainEvents[K]) => void): () => void {
    this.emitter.on(type, handler);
    return () => this.emitter.off(type, handler);
  }
}
