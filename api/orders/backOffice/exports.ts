import type { Knex } from 'knex';
import { formatOrderNumber } from '../../../contract/checkout';
import { penceToPounds } from '../../../contract/money';
import { csvField } from '../purchaseExport';

// The back office's CSV downloads (docs/product.md#admin-exports): every order, and the
// competitions on sale. Every field goes through csvField (quoting, formula injection).

const day = (at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(at);
const isoOrBlank = (ms: number | string | null) => (ms === null ? '' : new Date(Number(ms)).toISOString());
const pounds = (pence: number | string) => penceToPounds(Number(pence)).toFixed(2);

/** The BOM makes Excel read the file as UTF-8 (names with accents, the £ sign). */
const toCsv = (header: string[], rows: Array<Array<string | number>>) =>
  `\ufeff${[header, ...rows].map((r) => r.map(csvField).join(',')).join('\r\n')}\r\n`;

interface OrderRow {
  id: number;
  status: string;
  paymentProvider: string | null;
  subtotalPence: number;
  creditAppliedPence: number;
  totalPence: number;
  refundedPence: number;
  createdAt: number;
  paidAt: number | null;
  cancelledAt: number | null;
  cancellationReason: string | null;
  username: string | null;
  email: string | null;
  deletedAt: number | null;
  quantity: number | string | null;
}

export async function exportOrdersCsv(db: Knex, now = new Date()) {
  const rows = (await db('orders as o')
    .leftJoin('users as u', 'u.id', 'o.userId')
    .leftJoin(
      db('orderItems').groupBy('orderId').select('orderId', db.raw('sum(quantity) as quantity')).as('q'),
      'q.orderId',
      'o.id',
    )
    .orderBy('o.id', 'desc')
    .select(
      'o.id',
      'o.status',
      'o.paymentProvider',
      'o.subtotalPence',
      'o.creditAppliedPence',
      'o.totalPence',
      'o.refundedPence',
      'o.createdAt',
      'o.paidAt',
      'o.cancelledAt',
      'o.cancellationReason',
      'u.username',
      'u.email',
      'u.deletedAt',
      'q.quantity',
    )) as OrderRow[];
  const header = [
    'Order Number',
    'Status',
    'Customer',
    'Email',
    'Tickets',
    'Subtotal',
    'Site Credit',
    'Paid',
    'Refunded',
    'Payment',
    'Created',
    'Paid At',
    'Cancelled At',
    'Cancellation Reason',
  ];
  const lines = rows.map((o) => {
    const gone = Boolean(o.deletedAt);
    return [
      formatOrderNumber(Number(o.id)),
      o.status,
      gone ? 'Deleted user' : (o.username ?? 'Guest'),
      gone ? '' : (o.email ?? ''),
      Number(o.quantity ?? 0),
      pounds(o.subtotalPence),
      pounds(o.creditAppliedPence),
      pounds(o.totalPence),
      pounds(o.refundedPence ?? 0),
      o.paymentProvider ?? '',
      isoOrBlank(o.createdAt),
      isoOrBlank(o.paidAt),
      isoOrBlank(o.cancelledAt),
      o.cancellationReason ?? '',
    ];
  });
  return { filename: `orders-${day(now)}.csv`, csv: toCsv(header, lines) };
}

interface CompetitionRow {
  id: number;
  title: string;
  details: string | { category?: string } | null;
  ticketPricePence: number;
  totalTickets: number;
  ticketsSold: number;
  endDate: number;
}

const categoryOf = (details: CompetitionRow['details']) =>
  (typeof details === 'string' ? (JSON.parse(details) as { category?: string }) : details)?.category ?? '';

/** The competitions on sale now: active and not yet ended. */
export async function exportLiveCompetitionsCsv(db: Knex, now = new Date()) {
  const rows = (await db('competitions')
    .where({ status: 'active' })
    .where('endDate', '>', now.getTime())
    .orderBy('endDate', 'asc')
    .select(
      'id',
      'title',
      'details',
      'ticketPricePence',
      'totalTickets',
      'ticketsSold',
      'endDate',
    )) as CompetitionRow[];
  // Sales: what completed orders paid (bundles included, free postal entries nothing).
  const paid = (await db('orderItems as i')
    .join('orders as o', 'o.id', 'i.orderId')
    .where('o.status', 'completed')
    .whereIn(
      'i.competitionId',
      rows.map((c) => c.id),
    )
    .groupBy('i.competitionId')
    .select('i.competitionId', db.raw('sum(??) as ??', ['i.paidPence', 'pence']))) as Array<{
    competitionId: number;
    pence: unknown;
  }>;
  const salesOf = new Map(paid.map((r) => [Number(r.competitionId), Number(r.pence ?? 0)]));
  const header = [
    'ID',
    'Title',
    'Category',
    'Ticket Price',
    'Tickets Sold',
    'Total Tickets',
    'Sales',
    'Ends',
  ];
  const lines = rows.map((c) => [
    Number(c.id),
    c.title,
    categoryOf(c.details),
    pounds(c.ticketPricePence),
    Number(c.ticketsSold),
    Number(c.totalTickets),
    pounds(salesOf.get(Number(c.id)) ?? 0),
    isoOrBlank(c.endDate),
  ]);
  return { filename: `live-competitions-${day(now)}.csv`, csv: toCsv(header, lines) };
}
