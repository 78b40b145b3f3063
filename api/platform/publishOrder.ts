import type { EventBus } from './events';

// Transactions that bump one competition's version commit in version order (the version row's
// lock), but their COMMIT answers may come back in either order: MariaDB releases the row lock
// before the group commit's log flush answers, so the next holder can bump and commit within the
// same flush. Published as answered, the changes would reach watchers out of version order.
// Here a unit of work that recorded version v of a competition publishes only once every unit of
// this process that recorded an earlier version of it has published or rolled back. (Row locks
// rule out a cycle: of two units, only one can have bumped a competition after the other's COMMIT.)

interface Unit {
  versions: Map<number, number>;
  done: Promise<void>;
  settle: () => void;
}

export class PublishOrder {
  /** Units not yet published or rolled back, per competition. */
  private pending = new Map<number, Set<Unit>>();

  /** A unit of work's place in line; `record` each version it bumps, before its COMMIT. */
  open() {
    let settle!: () => void;
    const unit: Unit = { versions: new Map(), done: new Promise<void>((r) => (settle = r)), settle };
    return {
      record: (competitionId: number, version: number) => {
        unit.versions.set(competitionId, Math.max(version, unit.versions.get(competitionId) ?? 0));
        const units = this.pending.get(competitionId) ?? new Set<Unit>();
        units.add(unit);
        this.pending.set(competitionId, units);
      },
      /** Resolves once every unit ahead of this one on its competitions has settled. */
      turn: async () => {
        const ahead: Promise<void>[] = [];
        for (const [competitionId, version] of unit.versions) {
          for (const other of this.pending.get(competitionId) ?? []) {
            if (other !== unit && (other.versions.get(competitionId) ?? 0) < version) ahead.push(other.done);
          }
        }
        await Promise.all(ahead);
      },
      /** Published or rolled back: the units behind it may go. */
      settle: () => {
        for (const competitionId of unit.versions.keys()) {
          const units = this.pending.get(competitionId);
          units?.delete(unit);
          if (units?.size === 0) this.pending.delete(competitionId);
        }
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
