import type { Knex } from 'knex';
import { isRetryableTxError } from '../../db/dialect';
import type { DomainEvents, EventBus } from './events';

// One transaction and the domain events it produces. Services record events on the unit of
// work while they change rows; they are published once, in order, only after COMMIT. A retried
// attempt starts with a fresh unit, so nothing recorded by a rolled-back attempt survives and no
// service keeps state to reset between attempts.

/** Thrown inside a unit of work to have the whole transaction run again with a fresh snapshot. */
export class RetryTransaction extends Error {}

/** How often a transaction had to run again; reported by `npm run bench`. */
export const transactionStats = { deadlockRetries: 0, collisionRetries: 0 };

type Recorded = { [K in keyof DomainEvents]: { type: K; payload: DomainEvents[K] } }[keyof DomainEvents];

export interface UnitOfWork {
  readonly trx: Knex.Transaction;
  /** Records an event, published after COMMIT; dropped if the transaction rolls back. */
  emit<K extends keyof DomainEvents>(type: K, payload: DomainEvents[K]): void;
}

export interface UnitOfWorkDeps {
  db: Knex;
  events: EventBus;
}

// How often a unit of work runs before a deadlock or lock timeout goes out as an error; the
// jittered backoff spreads the retries.
const MAX_ATTEMPTS = 16;

/**
 * Runs `work` in a transaction, retrying it whole on a deadlock, a lock timeout or a
 * RetryTransaction, then publishes what it emitted. Returns what `work` returned.
 */
export async function inUnitOfWork<T>(
  deps: UnitOfWorkDeps,
  work: (uow: UnitOfWork) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const recorded: Recorded[] = [];
    const place = publishOrderOf(deps.events).open();
    try {
      const result = await deps.db.transaction((trx) =>
        work({
          trx,
          emit: (type, payload) => {
            recorded.push({ type, payload } as Recorded);
            const { competitionId, version } = payload as { competitionId?: unknown; version?: unknown };
            if (typeof competitionId === 'number' && typeof version === 'number') {
              place.record(competitionId, version);
            }
          },
        }),
      );
      await place.turn();
      for (const e of recorded) deps.events.publish(e.type, e.payload as never);
      place.settle();
      return result;
    } catch (err) {
      place.settle();
      const collision = err instanceof RetryTransaction;
      if (!(collision || isRetryableTxError(err)) || attempt >= MAX_ATTEMPTS) throw err;
      if (collision) transactionStats.collisionRetries++;
      else transactionStats.deadlockRetries++;
      await new Promise((r) => setTimeout(r, 2 + Math.random() * 8 * attempt));
    }
  }
}

// Transactions that bump one competition's version commit in version order (the version row's
// lock), but their COMMIT answers may come back in either order: MariaDB releases the row lock
// before the group commit's log flush answers, so the next holder can bump and commit within the
// same flush. Published as answered, the changes would reach watchers out of version order.
// Here a unit of work that recorded version v of a competition publishes only once every unit of
// this process that recorded an earlier version of it has published or rolled back. (Row locks
// rule out a cycle: of two units, only one can have bumped a competition after the other's COMMIT.)

interface Unit {
  versions: Map<number, number>;
  /**
   * Expected to bump these competitions (every one, for null) at versions it learns only once its
   * COMMIT is answered: a stored procedure that commits in the same round trip
   * (api/tickets/hotPath/). `known` resolves when it records them or settles.
   */
  expected: Set<number | null>;
  known: Promise<void>;
  markKnown: () => void;
  done: Promise<void>;
  settle: () => void;
}

/** Whether `other` (already known) bumped `competitionId` to a version before `version`. */
const before = (other: Unit, competitionId: number, version: number) =>
  (other.versions.get(competitionId) ?? Number.POSITIVE_INFINITY) < version;

export class PublishOrder {
  /** Units not yet published or rolled back, per competition (null: expected on any). */
  private pending = new Map<number | null, Set<Unit>>();

  /** A unit of work's place in line; `record` each version it bumps, before its COMMIT. */
  open() {
    let settle!: () => void;
    let markKnown!: () => void;
    const unit: Unit = {
      versions: new Map(),
      expected: new Set(),
      known: new Promise<void>((r) => (markKnown = r)),
      markKnown,
      done: new Promise<void>((r) => (settle = r)),
      settle,
    };
    const join = (key: number | null) => {
      const units = this.pending.get(key) ?? new Set<Unit>();
      units.add(unit);
      this.pending.set(key, units);
    };
    return {
      /**
       * Before a COMMIT whose versions come back with its answer: this unit will bump
       * `competitionId` (null: a competition not known yet). Units that recorded a later version
       * wait in `turn` until this one records, then only if it came first.
       */
      expect: (competitionId: number | null) => {
        unit.expected.add(competitionId);
        join(competitionId);
      },
      record: (competitionId: number, version: number) => {
        unit.versions.set(competitionId, Math.max(version, unit.versions.get(competitionId) ?? 0));
        join(competitionId);
        if (unit.expected.size) unit.markKnown();
      },
      /** Resolves once every unit ahead of this one on its competitions has settled. */
      turn: async () => {
        const ahead: Promise<void>[] = [];
        for (const [competitionId, version] of unit.versions) {
          const others = new Set([
            ...(this.pending.get(competitionId) ?? []),
            ...(this.pending.get(null) ?? []),
          ]);
          for (const other of others) {
            if (other === unit) continue;
            if (other.expected.has(competitionId) || other.expected.has(null)) {
              // Its version is not known yet: wait for its answer, then for it if it came first.
              ahead.push(
                other.known.then(() => (before(other, competitionId, version) ? other.done : undefined)),
              );
            } else if (before(other, competitionId, version)) ahead.push(other.done);
          }
        }
        await Promise.all(ahead);
      },
      /** Published or rolled back: the units behind it may go. */
      settle: () => {
        for (const key of [...unit.versions.keys(), ...unit.expected]) {
          const units = this.pending.get(key);
          units?.delete(unit);
          if (units?.size === 0) this.pending.delete(key);
        }
        unit.markKnown();
        unit.settle();
      },
    };
  }
}

const orders = new WeakMap<EventBus, PublishOrder>();

/** The publication order of one event bus (one per server). */
export function publishOrderOf(events: EventBus): PublishOrder {
  const order = orders.get(events) ?? new PublishOrder();
  orders.set(events, order);
  return order;
}
