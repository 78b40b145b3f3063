import type { Knex } from 'knex';

// Starting the bulk refund worker's pass at once (worker.ts registers it per database handle), so
// a cancellation's refunds start now rather than at the next tick. Without a worker it does
// nothing: the next process to start resumes the job.

const kicks = new WeakMap<Knex, () => void>();

export function registerKick(db: Knex, kick: () => void): void {
  kicks.set(db, kick);
}

export function kickBulkRefunds(deps: { db: Knex }): void {
  kicks.get(deps.db)?.();
}
