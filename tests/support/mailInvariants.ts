import type { Knex } from 'knex';
import { readOutbox } from './outbox';

// The e-mail invariants after crashes (docs/emails.md#the-outbox), each returning what breaks it:
// every e-mail a committed fact owes was sent exactly once, as the recipient sees it.

interface OutboxRow {
  kind: string;
  subjectKey: string;
  status: string;
  messageId: string | null;
}

const sentRows = async (db: Knex, kind: string) =>
  (await db('mailOutbox').where({ kind }).select('kind', 'subjectKey', 'status', 'messageId')) as OutboxRow[];

/** Subjects owed but not sent once: missing, not 'sent', or (impossible by the key) twice. */
function unsent(owed: string[], rows: OutboxRow[]) {
  return owed.flatMap((subject) => {
    const found = rows.filter((r) => r.subjectKey === subject);
    return found.length === 1 && found[0]!.status === 'sent' ? [] : [{ subject, rows: found }];
  });
}

/** Every order the site sold by card (with a customer who still exists) has one confirmation sent. */
export async function unconfirmedOrders(db: Knex) {
  const orders = (await db('orders as o')
    .join('users as u', 'u.id', 'o.userId')
    .where('o.status', 'completed')
    .where('o.paymentProvider', 'sandbox')
    .whereNull('u.deletedAt')
    .select('o.id', 'o.confirmationSentAt')) as Array<{ id: number; confirmationSentAt: number | null }>;
  const rows = await sentRows(db, 'order-confirmation');
  return [
    ...unsent(
      orders.map((o) => `order:${o.id}`),
      rows,
    ),
    ...orders
      .filter((o) => o.confirmationSentAt === null)
      .map((o) => ({ subject: `order:${o.id}`, rows: [] })),
  ];
}

/**
 * Every drawn competition: one winner e-mail sent per prize, one result e-mail sent to every other
 * entrant, and nothing else.
 */
export async function unsentDrawMail(db: Knex) {
  const draws = (await db('draws').select('competitionId', 'winnerUserId')) as Array<{
    competitionId: number;
    winnerUserId: number | null;
  }>;
  const winners = await sentRows(db, 'winner');
  const results = await sentRows(db, 'draw-result');
  const problems: unknown[] = [];
  for (const d of draws) {
    const c = Number(d.competitionId);
    const entrants = (
      (await db('tickets').where({ competitionId: c, status: 'sold' }).distinct('userId')) as Array<{
        userId: number;
      }>
    ).map((r) => Number(r.userId));
    const owedResults = entrants
      .filter((u) => u !== Number(d.winnerUserId))
      .map((u) => `competition:${c}:user:${u}`);
    const ofThis = (rows: OutboxRow[]) => rows.filter((r) => r.subjectKey.startsWith(`competition:${c}:`));
    problems.push(...unsent(d.winnerUserId ? [`competition:${c}:prize:1`] : [], ofThis(winners)));
    problems.push(...unsent(owedResults, ofThis(results)));
    const extra = ofThis(results).filter((r) => !owedResults.includes(r.subjectKey));
    if (extra.length) problems.push({ competitionId: c, notOwed: extra });
  }
  return problems;
}

/**
 * The captured mail (DATA_DIR/outbox): no Message-ID twice, and each sent outbox row's Message-ID
 * exactly once.
 */
export async function duplicateOrMissingMessages(db: Knex, dataDir: string) {
  const counts = new Map<string, number>();
  for (const m of readOutbox(dataDir)) counts.set(m.messageId, (counts.get(m.messageId) ?? 0) + 1);
  const sent = (await db('mailOutbox').where('status', 'sent').select('messageId')) as Array<{
    messageId: string | null;
  }>;
  return [
    ...[...counts].filter(([, n]) => n > 1).map(([messageId, n]) => ({ messageId, copies: n })),
    ...sent
      .filter((r) => counts.get(r.messageId ?? '') !== 1)
      .map((r) => ({ messageId: r.messageId, copies: 0 })),
  ];
}
