import type { Knex } from 'knex';
import { formatOrderNumber } from '../../contract/checkout';
import { penceToPounds } from '../../contract/money';
import { Competition } from '../../db/models';
import { notFound } from '../platform/errors';

// GET /api/admin/competitions/:id/export-csv: who bought which numbers, one row per order. A free
// postal entry is a row of its own: the postcard's name and e-mail, £0.00, entry route 'postal'.

interface SoldRow {
  number: number;
  orderId: number;
  paidAt: number | null;
  createdAt: number;
  username: string | null;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  deletedAt: number | null;
  paymentProvider: string | null;
  postalName: string | null;
  postalEmail: string | null;
}

const HEADER = [
  'Order Number',
  'Ticket Numbers',
  'Quantity',
  'Buyer',
  'Username',
  'Email',
  'Purchase Date',
  'Ticket Price',
  'Entry Route',
];

/**
 * One CSV field. Quoted when it holds a separator, quote or line break; a leading = + - @ is
 * neutralised so a spreadsheet never runs a buyer's name as a formula.
 */
export function csvField(value: string | number): string {
  let s = String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** 'Win a £10,000 Tesla!' + date -> 'win-a-10-000-tesla-2026-07-01.csv' */
export function exportFilename(title: string, at: Date): string {
  const slug =
    title
      .normalize('NFKD')
      .replace(/[^\w\s-]/g, ' ')
      .trim()
      .toLowerCase()
      .replace(/[\s_-]+/g, '-')
      .slice(0, 80)
      .replace(/-+$/, '') || 'competition';
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(at); // YYYY-MM-DD
  return `${slug}-${day}.csv`;
}

export async function exportPurchasesCsv(
  db: Knex,
  competitionId: number,
  now = new Date(),
): Promise<{ filename: string; csv: string }> {
  const competition = (await Competition.query(db).findById(competitionId)) as Competition | undefined;
  if (!competition) throw notFound('Competition not found');
  const rows = (await db('tickets as t')
    .join('orders as o', 'o.id', 't.orderId')
    .leftJoin('users as u', 'u.id', 't.userId')
    .leftJoin('postalEntries as pe', 'pe.orderId', 't.orderId')
    .where({ 't.competitionId': competitionId, 't.status': 'sold' })
    .orderBy([
      { column: 'o.id', order: 'asc' },
      { column: 't.number', order: 'asc' },
    ])
    .select(
      't.number',
      't.orderId',
      'o.paidAt',
      'o.createdAt',
      'u.username',
      'u.firstName',
      'u.lastName',
      'u.email',
      'u.deletedAt',
      'o.paymentProvider',
      'pe.name as postalName',
      'pe.email as postalEmail',
    )) as SoldRow[];
  const byOrder = new Map<number, SoldRow[]>();
  for (const r of rows) byOrder.set(Number(r.orderId), [...(byOrder.get(Number(r.orderId)) ?? []), r]);
  const lines = [HEADER.map(csvField).join(',')];
  for (const [orderId, tickets] of byOrder) {
    const first = tickets[0]!;
    const deleted = Boolean(first.deletedAt);
    const postal = first.paymentProvider === 'postal';
    const buyer = deleted
      ? 'Deleted user'
      : postal && first.postalName
        ? first.postalName
        : [first.firstName, first.lastName].filter(Boolean).join(' ');
    lines.push(
      [
        formatOrderNumber(orderId),
        tickets.map((t) => t.number).join(' '),
        tickets.length,
        buyer,
        deleted ? '' : (first.username ?? ''),
        deleted ? '' : (first.email ?? first.postalEmail ?? ''),
        new Date(Number(first.paidAt ?? first.createdAt)).toISOString(),
        penceToPounds(postal ? 0 : competition.ticketPricePence).toFixed(2),
        postal ? 'postal' : 'paid',
      ]
        .map(csvField)
        .join(','),
    );
  }
  // The BOM makes Excel read the file as UTF-8 (names with accents, the £ sign).
  return { filename: exportFilename(competition.title, now), csv: `\ufeff${lines.join('\r\n')}\r\n` };
}
