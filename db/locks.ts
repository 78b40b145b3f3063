import type { Knex } from 'knex';
import { engineOfKnex } from './dialect';

/**
 * The lock order: every transaction locks rows of these kinds in this order, never going back to
 * an earlier kind once it holds a later one, so no two transactions wait on each other in a cycle
 * (docs/architecture.md#lock-order). Several rows of one kind are locked in key order.
 *
 * - `promo`: a promo code's row (deleting it locks the holders of its credit next).
 * - `user`: a person's row. The customer's lock: checkout, payment start, fulfilment, cancelling,
 *   credit, promo redemption, preferences, protection limits, deletion serialise on it.
 * - `credit`: credit-ledger rows, share-locked to count a promo's grants across the accounts of a
 *   mailbox (a locking read sees what the redemption it queued behind committed).
 * - `holdCap`: a person's cap_locks rows of a competition (holds, the sign-in merge).
 * - `order`: an order's row.
 * - `competition`: a competition's row (sales, draws, admin edits, postal entries).
 * - `prizeRecord`: draw and prize rows with their competitions (undelivered prizes of a person).
 * - `cartItem`: cart items (checkout, the sign-in merge, the expiry sweeper).
 * - `ticket`: ticket rows (the numbers sold, held or counted for a cap).
 * - `instantWin`: instant-win rows (awarding, returning, delivering).
 * - `skillAttempt`: a person's wrong answers to a competition's question.
 * - `complaint`: a complaint's row.
 */
export const LOCK_ORDER = [
  'promo',
  'user',
  'credit',
  'holdCap',
  'order',
  'competition',
  'prizeRecord',
  'cartItem',
  'ticket',
  'instantWin',
  'skillAttempt',
  'complaint',
] as const;

export type Lockable = (typeof LOCK_ORDER)[number];

const RANK = new Map<Lockable, number>(LOCK_ORDER.map((kind, i) => [kind, i]));

/** The latest kind each open transaction has locked (dropped with the transaction object). */
const held = new WeakMap<object, Lockable>();

export class LockOrderError extends Error {}

/** The kind this transaction locked last, if any (for tests). */
export const lastLocked = (trx: Knex): Lockable | undefined => held.get(trx);

/**
 * Records that `trx` takes a lock of `kind`, or throws: outside a transaction a lock means
 * nothing, and a kind earlier than one already held breaks the order. Checked on both engines, so
 * the SQLite tests catch an order the MariaDB ones would only deadlock on.
 */
export function claimLock(trx: Knex, kind: Lockable): void {
  if (!(trx as Knex.Transaction).isTransaction) {
    throw new LockOrderError(`A ${kind} lock is taken only inside a transaction.`);
  }
  const last = held.get(trx);
  if (last && RANK.get(kind)! < RANK.get(last)!) {
    throw new LockOrderError(
      `A ${kind} lock after a ${last} lock breaks the lock order (${LOCK_ORDER.join(' -> ')}).`,
    );
  }
  held.set(trx, kind);
}

/**
 * `q` as a locking read of `kind` rows (SELECT ... FOR UPDATE) on MySQL/MariaDB, after
 * claimLock. SQLite runs one write transaction at a time, so there it stays a plain read.
 */
export function lockRows<Q extends { forUpdate(): unknown }>(trx: Knex, kind: Lockable, q: Q): Q {
  claimLock(trx, kind);
  return engineOfKnex(trx) === 'mysql' ? (q.forUpdate() as Q) : q;
}

/**
 * `q` as a shared locking read of `kind` rows (SELECT ... FOR SHARE) on MySQL/MariaDB when
 * `locking`; a plain read, and no claim, when not.
 */
export function shareRows<Q extends { forShare(): unknown }>(
  db: Knex,
  kind: Lockable,
  q: Q,
  locking = true,
): Q {
  if (!locking) return q;
  claimLock(db, kind);
  return engineOfKnex(db) === 'mysql' ? (q.forShare() as Q) : q;
}
