import type { Knex } from 'knex';
import { lockRows } from '../../../db/locks';
import { Order, OrderItem } from '../../../db/models';
import { isOwnedBy } from '../../tickets/cartQueries';
import { capOf, selfExcludedUntil } from '../../tickets/holdChecks';
import { pickAvailable, unavailableNumbers } from '../../tickets/numberPicker';
import type { PaymentReport } from '../payment';

// Fulfilment's deciding half: locks the order and everything it sells, checks the payment against
// it, and plans each competition's numbers, or says why the money goes back. Writes nothing;
// sale.ts writes what it decided.

// Why an order was not completed, told exactly: a card order's payment is refunded; a credit-only
// order charged nothing and used no credit (credit is debited only on completion).
const REPLACED_ORDER_REASON =
  'This checkout had been replaced by a newer one before the payment arrived, so the payment has been refunded.';
const REPLACED_CREDIT_ORDER_REASON =
  'This checkout was replaced by a newer one before it completed, so nothing was charged and no site credit was used. Your numbers went to the newer checkout.';
const CREDIT_GONE_REASON =
  'Your site credit had already been used elsewhere when this payment arrived, so the payment has been refunded.';
const CREDIT_GONE_CREDIT_ORDER_REASON =
  'Your site credit had already been used for another order, so this order was not completed and nothing was charged. Your numbers are still in your cart until their hold ends.';

export const paidByCredit = (order: Pick<Order, 'paymentProvider'>) => order.paymentProvider === 'credit';
/** The end of a refusal's message: what happened to the money. */
const moneyOutcome = (order: Pick<Order, 'paymentProvider'>) =>
  paidByCredit(order)
    ? 'so nothing was charged and no site credit was used'
    : 'so the payment has been refunded';

export const listNumbers = (ns: number[]) =>
  ns.length === 1 ? String(ns[0]) : `${ns.slice(0, -1).join(', ')} and ${ns[ns.length - 1]}`;
export const numbersWord = (ns: number[]) => (ns.length === 1 ? 'number' : 'numbers');
export const wasWere = (ns: number[]) => (ns.length === 1 ? 'was' : 'were');

interface TicketRow {
  id: number;
  number: number;
  status: 'reserved' | 'sold';
  userId: number | null;
  guestId: string | null;
  cartItemId: number | null;
  expiresAt: number | null;
}

/** One competition's part of the sale, decided before anything is written. */
export interface Plan {
  competitionId: number;
  title: string;
  autoWin: boolean;
  totalTickets: number;
  /** The ordered numbers, ascending. */
  numbers: number[];
  /** The customer's own holds: they become sold. */
  mine: TicketRow[];
  /** Ids of someone else's expired holds on ordered numbers: deleted. */
  stale: number[];
  /** Numbers inserted as sold rows (free, freed from a stale hold, or a replacement). */
  insert: number[];
  /** Ordered number -> the free number sold instead, because it was taken while the customer paid. */
  replacements: Map<number, number>;
}

export type CustomerOrder = Order & { userId: number };

/** The cart owner an order was made for: its numbers were held by this account or guest id. */
export const customerOf = (order: CustomerOrder) => ({ guestId: order.guestId ?? '', userId: order.userId });

/** What the checks decided. Nothing has been written when it is made, only rows locked. */
export type Decision =
  | { kind: 'already' }
  | { kind: 'rejected'; reason: string }
  /** The payment cannot buy its tickets: the money goes back. */
  | { kind: 'refund'; reason: string }
  | { kind: 'sell'; order: CustomerOrder; items: OrderItem[]; plans: Plan[] };

/** Why a payment is not the one this order asked for (null: it is). */
function paymentMismatch(order: Order, report: PaymentReport): string | null {
  if (order.paymentProvider !== report.provider) {
    return `paid through ${report.provider}, order uses ${order.paymentProvider}`;
  }
  if (report.provider !== 'credit' && order.paymentIntentId !== report.intentId) {
    return 'the payment is not the one made for this order';
  }
  if (report.amountPence !== order.totalPence || report.currency.toLowerCase() !== order.currency) {
    return `paid ${report.amountPence} ${report.currency}, order is ${order.totalPence} ${order.currency}`;
  }
  return null;
}

/** The ordered numbers per competition, both ascending (the order competitions are locked in). */
function numbersByCompetition(items: OrderItem[]): Array<[number, number[]]> {
  const byCompetition = new Map<number, number[]>();
  for (const i of items) {
    byCompetition.set(i.competitionId, [...(byCompetition.get(i.competitionId) ?? []), ...i.selectedNumbers]);
  }
  return [...byCompetition]
    .sort(([a], [b]) => a - b)
    .map(([competitionId, numbers]) => [competitionId, [...numbers].sort((a, b) => a - b)]);
}

/** Sorts the ordered numbers by the state of their ticket rows; `lost` were taken by someone else. */
function sortOrderedNumbers(order: CustomerOrder, numbers: number[], rows: TicketRow[], now: number) {
  const byNumber = new Map(rows.map((r) => [r.number, r]));
  const customer = customerOf(order);
  const mine: TicketRow[] = [];
  const stale: number[] = [];
  const insert: number[] = [];
  const lost: number[] = [];
  for (const n of numbers) {
    const r = byNumber.get(n);
    if (!r) insert.push(n);
    else if (r.status === 'reserved' && isOwnedBy(customer, r)) mine.push(r);
    else if (r.status === 'reserved' && Number(r.expiresAt) <= now) {
      // Someone else's expired hold blocks nobody: it goes, and the number is ours.
      stale.push(r.id);
      insert.push(n);
    } else lost.push(n);
  }
  return { mine, stale, insert, lost };
}

/** Free numbers to sell instead of `count` lost ones (null: not enough left). */
async function pickReplacements(
  trx: Knex.Transaction,
  competitionId: number,
  totalTickets: number,
  ordered: number[],
  count: number,
  now: number,
): Promise<number[] | null> {
  const taken = await unavailableNumbers(trx, competitionId, now);
  for (const n of ordered) taken.add(n);
  if (totalTickets - taken.size < count) return null;
  return pickAvailable(totalTickets, taken, count);
}

/**
 * The per-person cap holds for what an account buys, however its numbers were held (a cap lowered
 * after checkout, a merge, a grant): bought before plus this order must fit, or the whole order is
 * refunded. The competition row is locked by the caller, so two sales of one account serialise.
 */
async function overCapMessage(
  trx: Knex.Transaction,
  order: CustomerOrder,
  competition: { id: number; maxTicketsPerUser: number | null },
  title: string,
  ordering: number,
): Promise<string | null> {
  const limit = await capOf(trx, { maxTicketsPerUser: competition.maxTicketsPerUser ?? null });
  const row = (await trx('tickets')
    .where({ competitionId: competition.id, userId: order.userId, status: 'sold' })
    .count({ n: '*' })
    .first()) as { n: number } | undefined;
  const bought = Number(row?.n ?? 0);
  if (bought + ordering <= limit) return null;
  return (
    `The limit for "${title}" is ${limit} tickets per person` +
    `${bought ? ` and you already have ${bought}` : ''}, so this order of ${ordering} ` +
    `could not be completed${paidByCredit(order) ? ': nothing was charged and no site credit was used' : ' and the payment has been refunded'}.`
  );
}

type CompetitionRow = {
  id: number;
  title: string;
  status: string;
  endDate: number;
  totalTickets: number;
  autoWin: boolean;
  drawnAt: number | null;
  drawBeaconRound: number | null;
  maxTicketsPerUser: number | null;
};

/** Locks the order's competitions, all before any ticket (db/locks.ts), in id order. */
async function lockCompetitions(trx: Knex.Transaction, ids: number[]): Promise<Map<number, CompetitionRow>> {
  const rows = (await lockRows(
    trx,
    'competition',
    trx('competitions')
      .whereIn('id', ids)
      .orderBy('id')
      .select(
        'id',
        'title',
        'status',
        'endDate',
        'totalTickets',
        'autoWin',
        'drawnAt',
        'drawBeaconRound',
        'maxTicketsPerUser',
      ),
  )) as CompetitionRow[];
  return new Map(rows.map((c) => [Number(c.id), c]));
}

/** Locks the ordered numbers' rows of one (locked) competition, and decides how they are sold. */
async function planCompetition(
  trx: Knex.Transaction,
  order: CustomerOrder,
  items: OrderItem[],
  competitionId: number,
  competition: CompetitionRow | undefined,
  numbers: number[],
  now: number,
): Promise<{ plan: Plan } | { refund: string }> {
  const title = competition?.title ?? items.find((i) => i.competitionId === competitionId)?.title ?? '';
  const closedMessage = paidByCredit(order)
    ? `"${title}" closed before your order was completed, ${moneyOutcome(order)}.`
    : `"${title}" closed before your payment arrived, ${moneyOutcome(order)}.`;
  // Closed (end date passed or ended): a payment started before the close may still finish
  // while its own holds last (docs/draws.md). Never into an archived or drawn competition, nor
  // one whose beacon round is fixed (its entries are final).
  if (!competition) return { refund: closedMessage };
  const closed = competition.status !== 'active' || Number(competition.endDate) <= now;
  const startedBeforeClose = order.createdAt < Number(competition.endDate);
  // Cancelled: every entry is being refunded (docs/product.md#minimum-sales-and-cancellation).
  if (
    competition.status === 'archived' ||
    competition.status === 'cancelled' ||
    competition.drawnAt ||
    competition.drawBeaconRound
  )
    return { refund: closedMessage };
  if (closed && !startedBeforeClose) return { refund: closedMessage };
  const overCap = await overCapMessage(trx, order, competition, title, numbers.length);
  if (overCap) return { refund: overCap };
  const rows = (await lockRows(
    trx,
    'ticket',
    trx('tickets')
      .where({ competitionId })
      .whereIn('number', numbers)
      .select('id', 'number', 'status', 'userId', 'guestId', 'cartItemId', 'expiresAt'),
  )) as TicketRow[];
  const { mine, stale, insert, lost } = sortOrderedNumbers(order, numbers, rows, now);
  if (closed && (lost.length || insert.length || mine.some((r) => Number(r.expiresAt) <= now))) {
    // After the close only the customer's own live holds can be paid for: no replacements.
    return { refund: closedMessage };
  }
  const totalTickets = Number(competition.totalTickets);
  const replacements = new Map<number, number>();
  if (lost.length) {
    // Our hold expired and the number was taken while the customer paid: other free numbers.
    const picked = await pickReplacements(trx, competitionId, totalTickets, numbers, lost.length, now);
    if (!picked) {
      return {
        refund:
          `Your ${numbersWord(lost)} ${listNumbers(lost)} in "${title}" ` +
          `${wasWere(lost)} taken while you were paying and there were not enough other numbers left, ${moneyOutcome(order)}.`,
      };
    }
    lost.forEach((n, i) => {
      replacements.set(n, picked[i]!);
      insert.push(picked[i]!);
    });
  }
  const autoWin = Boolean(competition.autoWin);
  return {
    plan: { competitionId, title, autoWin, totalTickets, numbers, mine, stale, insert, replacements },
  };
}

/** Whether the credit the order applies is still in the customer's balance. */
async function creditStillAvailable(trx: Knex.Transaction, order: CustomerOrder): Promise<boolean> {
  if (order.creditAppliedPence <= 0) return true;
  const user = (await trx('users').where({ id: order.userId }).first('siteCreditPence')) as
    | { siteCreditPence: number }
    | undefined;
  return Boolean(user && user.siteCreditPence >= order.creditAppliedPence);
}

/**
 * Reads and decides: locks the order and everything it sells, checks the payment against it, and
 * plans each competition's numbers. Writes nothing.
 */
export async function decideFulfilment(
  trx: Knex.Transaction,
  orderId: number,
  userId: number,
  report: PaymentReport,
  now: number,
): Promise<Decision> {
  // The user row guards the credit balance (db/locks.ts has the order of every lock). The first
  // reads are locking reads, so on MySQL the transaction's snapshot is taken only after the order
  // is ours: a fulfilment that waited here sees everything the previous one committed.
  await lockRows(trx, 'user', trx('users').where({ id: userId }).first('id'));
  const order = (await lockRows(trx, 'order', Order.query(trx).findById(orderId))) as Order | undefined;
  if (!order?.userId) return { kind: 'rejected', reason: 'order not found' };
  if (order.status === 'completed') return { kind: 'already' };
  const mismatch = paymentMismatch(order, report);
  if (mismatch) return { kind: 'rejected', reason: mismatch };
  if (order.status === 'cancelled') {
    const replaced = paidByCredit(order) ? REPLACED_CREDIT_ORDER_REASON : REPLACED_ORDER_REASON;
    return { kind: 'refund', reason: order.refundReason ?? replaced };
  }
  // A payment that arrives while its customer takes a break (it was started before) buys nothing.
  if (await selfExcludedUntil(trx, userId, now)) {
    return { kind: 'refund', reason: `You are taking a break from buying tickets, ${moneyOutcome(order)}.` };
  }
  const customerOrder = order as CustomerOrder;

  // pending, or failed (a declined card followed by a good one): sell the order's numbers.
  const items = (await OrderItem.query(trx).where({ orderId }).orderBy('id')) as OrderItem[];
  const plans: Plan[] = [];
  const ordered = numbersByCompetition(items);
  const competitions = await lockCompetitions(
    trx,
    ordered.map(([id]) => id),
  );
  for (const [competitionId, numbers] of ordered) {
    const competition = competitions.get(competitionId);
    const planned = await planCompetition(
      trx,
      customerOrder,
      items,
      competitionId,
      competition,
      numbers,
      now,
    );
    if ('refund' in planned) return { kind: 'refund', reason: planned.refund };
    plans.push(planned.plan);
  }
  if (!(await creditStillAvailable(trx, customerOrder))) {
    const reason = paidByCredit(order) ? CREDIT_GONE_CREDIT_ORDER_REASON : CREDIT_GONE_REASON;
    return { kind: 'refund', reason };
  }
  return { kind: 'sell', order: customerOrder, items, plans };
}
