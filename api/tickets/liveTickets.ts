import type { Knex } from 'knex';

/**
 * A competition's tickets that count right now: sold, or held by a hold that has not expired.
 * An expired hold blocks nobody, swept or not; every read of ticket state starts here.
 */
export const liveTickets = (db: Knex, competitionId: number, now: number) =>
  db('tickets')
    .where('competitionId', competitionId)
    .andWhere((q) => q.where('status', 'sold').orWhere('expiresAt', '>', now));
