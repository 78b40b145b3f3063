import type { Knex } from 'knex';
import type { TicketHistoryEntry } from '../../../contract/admin';
import { type Batched, runBatch, write } from '../../../db/statementBatch';

// Each number's history for the admin ticket lookup: one row per change, written by whoever makes
// the change, inside its transaction (so history and tickets never disagree).

export type TicketEventKind = TicketHistoryEntry['event'];

export interface TicketRef {
  competitionId: number;
  number: number;
}

const CHUNK = 500;

type About = { orderId?: number | null; userId?: number | null; note?: string | null };

/** One multi-row INSERT (per 500 numbers) for a change to many numbers. */
export async function recordTicketEvents(
  trx: Knex.Transaction,
  tickets: TicketRef[],
  event: TicketEventKind,
  about: About = {},
  now = Date.now(),
): Promise<void> {
  for (let i = 0; i < tickets.length; i += CHUNK) {
    await runBatch(trx, ticketEventsInsert(trx, tickets.slice(i, i + CHUNK), event, about, now));
  }
}

/** The history rows of a change to at most 500 numbers, as one statement for a batch. */
export function ticketEventsInsert(
  trx: Knex.Transaction,
  tickets: TicketRef[],
  event: TicketEventKind,
  about: About,
  now: number,
): Batched<void> {
  return write(
    trx('ticketEvents').insert(
      tickets.map((t) => ({
        competitionId: t.competitionId,
        number: t.number,
        event,
        orderId: about.orderId ?? null,
        userId: about.userId ?? null,
        note: about.note?.slice(0, 100) ?? null,
        createdAt: now,
      })),
    ),
  );
}

/** The same numbers of one competition as TicketRefs. */
export const refsOf = (competitionId: number, numbers: number[]): TicketRef[] =>
  numbers.map((number) => ({ competitionId, number }));

/** Oldest first. */
export async function ticketHistory(
  db: Knex,
  competitionId: number,
  number: number,
): Promise<TicketHistoryEntry[]> {
  const rows = (await db('ticketEvents')
    .where({ competitionId, number })
    .orderBy('id', 'asc')
    .limit(500)
    .select('event', 'createdAt', 'orderId', 'userId', 'note')) as Array<{
    event: TicketEventKind;
    createdAt: number;
    orderId: number | null;
    userId: number | null;
    note: string | null;
  }>;
  return rows.map((r) => ({
    event: r.event,
    at: new Date(Number(r.createdAt)).toISOString(),
    orderId: r.orderId === null ? null : Number(r.orderId),
    userId: r.userId === null ? null : Number(r.userId),
    note: r.note,
  }));
}
