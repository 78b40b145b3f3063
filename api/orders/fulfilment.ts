import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { formatOrderNumber } from '../../contract/checkout';
import { isUniqueViolation, lockForUpdate } from '../../db/dialect';
import { type InstantWin, Order, OrderItem } from '../../db/models';
import { spendCredit } from '../accounts/credit';
import type { DrawBeacon } from '../draws/beacon/drawBeacon';
import { emitCompetitionUpdated } from '../draws/drawable';
import { drawAfterSellOut } from '../draws/draws';
import type { IntentState, PaymentGateway } from '../payments/gateway';
import type { AppDeps } from '../platform/context';
import type { EventBus } from '../platform/events';
import type { FaultInjector } from '../platform/faults';
import type { Mailer } from '../platform/mailer';
import type { Metrics } from '../platform/observability/metrics';
import { inUnitOfWork, RetryTransaction, type UnitOfWork } from '../platform/unitOfWork';
import { isOwnedBy } from '../tickets/cartQueries';
import { cartChanged } from '../tickets/cartRevision';
import { bumpVersionNow } from '../tickets/competitionVersions';
import { recordTicketEvents, refsOf } from '../tickets/history/ticketHistory';
import { capOf, selfExcludedUntil } from '../tickets/holdChecks';
import { pickAvailable, unavailableNumbers } from '../tickets/numberPicker';
import { awardInstantWins, emitInstantWins, sendInstantWinEmails, winnerNameOf } from './instantWins/awards';
import { sendCancellationNotice, sendConfirmation } from './orderEmails';

// Fulfilment: the one place where money received becomes sold tickets, for every gateway.
//
//   reserved (the customer's holds) --payment succeeded--> sold (order, user)
//
// Idempotent: the order row is locked first and a completed order is left alone, so the same
// success delivered any number of times (webhook retries, the sandbox form, PATCH /api/orders)
// sells once. Transactional: tickets, entries, credit, cart and order change together or not at
// all; events are published and the e-mail sent only after COMMIT.

export interface PaymentDeps {
  db: Knex;
  events: EventBus;
  logger: Logger;
  gateway: PaymentGateway;
  mailer: Mailer;
  siteName: string;
  faults?: FaultInjector;
  /** An auto-win sell-out fixes its draw's beacon round (api/draws). */
  beacon: DrawBeacon;
  /** payments_total and reconciler_settled_total (docs/operations.md#metrics). */
  metrics?: Metrics;
}

/** What every payment path needs, from the running app and its one gateway. */
export const paymentDepsOf = (app: AppDeps, gateway: PaymentGateway): PaymentDeps => ({
  db: app.db,
  events: app.events,
  logger: app.logger,
  gateway,
  mailer: app.mailer,
  siteName: app.config.siteName,
  faults: app.faults,
  beacon: app.drawBeacon,
  metrics: app.metrics,
});

/** What a gateway says was paid. */
export interface PaymentReport {
  provider: 'stripe' | 'sandbox' | 'credit';
  /** The gateway's payment id; null for orders paid wholly by credit. */
  intentId: string | null;
  /** The order id the payment carries in its metadata (or the order itself for credit). */
  orderId: number | null;
  amountPence: number;
  currency: string;
}

/** What a gateway's view of a payment says was paid, as fulfilment takes it. */
export const reportOf = (provider: 'stripe' | 'sandbox', state: IntentState): PaymentReport => ({
  provider,
  intentId: state.id,
  orderId: state.orderId,
  amountPence: state.amountPence,
  currency: state.currency,
});

export type FulfilmentResult =
  | { outcome: 'completed'; orderId: number }
  | { outcome: 'already_completed'; orderId: number }
  /** The money goes back: the tickets could not be sold. refundPending while the gateway has not confirmed. */
  | { outcome: 'refunded'; orderId: number; reason: string; refundPending: boolean }
  /** A credit-only order that could not be completed: nothing was charged, so nothing goes back. */
  | { outcome: 'not_completed'; orderId: number; reason: string }
  /** Nothing was done: the payment does not match an order of ours. */
  | { outcome: 'rejected'; orderId: number | null; reason: string };

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

const paidByCredit = (order: Pick<Order, 'paymentProvider'>) => order.paymentProvider === 'credit';
/** The end of a refusal's message: what happened to the money. */
const moneyOutcome = (order: Pick<Order, 'paymentProvider'>) =>
  paidByCredit(order)
    ? 'so nothing was charged and no site credit was used'
    : 'so the payment has been refunded';

const listNumbers = (ns: number[]) =>
  ns.length === 1 ? String(ns[0]) : `${ns.slice(0, -1).join(', ')} and ${ns[ns.length - 1]}`;
const numbersWord = (ns: number[]) => (ns.length === 1 ? 'number' : 'numbers');
const wasWere = (ns: number[]) => (ns.length === 1 ? 'was' : 'were');

interface Purchase {
  competitionId: number;
  version: number;
  numbers: number[];
  ticketsSold: number;
  /** Set when this sale sold an auto-win competition's last ticket and so closed it. */
  closedVersion?: number;
}

interface Sale {
  purchases: Purchase[];
  owner: { guestId: string; userId: number | null };
  /** The instant wins this sale won (docs/draws.md#instant-wins). */
  instantWins: InstantWin[];
}

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
interface Plan {
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

type CustomerOrder = Order & { userId: number };

/** The cart owner an order was made for: its numbers were held by this account or guest id. */
const customerOf = (order: CustomerOrder) => ({ guestId: order.guestId ?? '', userId: order.userId });

/** What the checks decided. Nothing has been written when it is made, only rows locked. */
type Decision =
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
  if (report.provider !== 'credit' && order.stripePaymentIntentId !== report.intentId) {
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

/** Locks one competition and its ordered numbers' rows, and decides how they are sold. */
async function planCompetition(
  trx: Knex.Transaction,
  order: CustomerOrder,
  items: OrderItem[],
  competitionId: number,
  numbers: number[],
  now: number,
): Promise<{ plan: Plan } | { refund: string }> {
  const competition = await lockForUpdate(
    trx,
    trx('competitions')
      .where({ id: competitionId })
      .first(
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
  );
  const title = competition?.title ?? items.find((i) => i.competitionId === competitionId)?.title ?? '';
  const closedMessage = paidByCredit(order)
    ? `"${title}" closed before your order was completed, ${moneyOutcome(order)}.`
    : `"${title}" closed before your payment arrived, ${moneyOutcome(order)}.`;
  // Closed (end date passed or ended): a payment started before the close may still finish
  // while its own holds last (docs/draws.md). Never into an archived or drawn competition, nor
  // one whose beacon round is fixed (its entries are final).
  const closed = competition?.status !== 'active' || Number(competition.endDate) <= now;
  const startedBeforeClose = Boolean(competition) && order.createdAt < Number(competition.endDate);
  if (!competition || competition.status === 'archived' || competition.drawnAt || competition.drawBeaconRound)
    return { refund: closedMessage };
  if (closed && !startedBeforeClose) return { refund: closedMessage };
  const overCap = await overCapMessage(trx, order, competition, title, numbers.length);
  if (overCap) return { refund: overCap };
  const rows = (await lockForUpdate(
    trx,
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
async function decideFulfilment(
  trx: Knex.Transaction,
  orderId: number,
  userId: number,
  report: PaymentReport,
  now: number,
): Promise<Decision> {
  // Lock order: user (credit balance) -> order -> competitions -> tickets -> cart items -> versions.
  // Checkout locks user -> order too, so the two never wait on each other in opposite orders. The
  // first reads are locking reads, so on MySQL the transaction's snapshot is taken only after the
  // order is ours: a fulfilment that waited here sees everything the previous one committed.
  await lockForUpdate(trx, trx('users').where({ id: userId }).first('id'));
  const order = (await lockForUpdate(trx, Order.query(trx).findById(orderId))) as Order | undefined;
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
  for (const [competitionId, numbers] of numbersByCompetition(items)) {
    const planned = await planCompetition(trx, customerOrder, items, competitionId, numbers, now);
    if ('refund' in planned) return { kind: 'refund', reason: planned.refund };
    plans.push(planned.plan);
  }
  if (!(await creditStillAvailable(trx, customerOrder))) {
    const reason = paidByCredit(order) ? CREDIT_GONE_CREDIT_ORDER_REASON : CREDIT_GONE_REASON;
    return { kind: 'refund', reason };
  }
  return { kind: 'sell', order: customerOrder, items, plans };
}

/** The numbers a plan actually sells, ascending. */
const soldNumbers = (plan: Plan) =>
  plan.numbers.map((n) => plan.replacements.get(n) ?? n).sort((a, b) => a - b);

/**
 * One competition's ticket rows become sold. Returns whether this sale closed an auto-win
 * competition (its last ticket sold; it is drawn after COMMIT).
 */
async function sellTickets(trx: Knex.Transaction, order: CustomerOrder, plan: Plan, now: number) {
  await trx('competitions').where({ id: plan.competitionId }).increment('ticketsSold', plan.numbers.length);
  const closedNow = plan.autoWin
    ? await trx('competitions')
        .where({ id: plan.competitionId, status: 'active' })
        .where('ticketsSold', '>=', plan.totalTickets)
        .update({ status: 'ended', updatedAt: now })
    : 0;
  if (plan.stale.length) await trx('tickets').whereIn('id', plan.stale).delete();
  if (plan.mine.length) {
    await trx('tickets')
      .whereIn(
        'id',
        plan.mine.map((r) => r.id),
      )
      .update({
        status: 'sold',
        orderId: order.id,
        userId: order.userId,
        cartItemId: null,
        expiresAt: null,
        isClaimed: true,
        updatedAt: now,
      });
  }
  if (plan.insert.length) {
    try {
      await trx('tickets').insert(
        plan.insert.map((number) => ({
          competitionId: plan.competitionId,
          number,
          status: 'sold',
          guestId: order.guestId,
          userId: order.userId,
          orderId: order.id,
          isClaimed: true,
          createdAt: now,
          updatedAt: now,
        })),
      );
    } catch (err) {
      // A free number was held by someone a moment ago: start again from a fresh read.
      if (isUniqueViolation(err)) throw new RetryTransaction();
      throw err;
    }
  }
  return closedNow > 0;
}

/** The order's lines record the numbers actually sold. */
async function recordReplacements(trx: Knex.Transaction, items: OrderItem[], plans: Plan[]) {
  const replacementOf = new Map<string, number>();
  for (const plan of plans)
    for (const [a, b] of plan.replacements) replacementOf.set(`${plan.competitionId}:${a}`, b);
  if (!replacementOf.size) return;
  for (const item of items) {
    const sold = item.selectedNumbers.map((n) => replacementOf.get(`${item.competitionId}:${n}`) ?? n);
    if (sold.some((n, i) => n !== item.selectedNumbers[i])) {
      await trx('orderItems')
        .where({ id: item.id })
        .update({ selectedNumbers: JSON.stringify(sold.sort((a, b) => a - b)) });
    }
  }
}

/**
 * The cart lines that were paid for leave the cart; a line that still holds numbers added after
 * checkout started keeps them.
 */
async function removePaidCartItems(trx: Knex.Transaction, plans: Plan[], now: number) {
  const paid = new Set<number>();
  for (const plan of plans) for (const r of plan.mine) if (r.cartItemId) paid.add(r.cartItemId);
  for (const cartItemId of [...paid].sort((a, b) => a - b)) {
    const left = (await trx('tickets').where({ cartItemId, status: 'reserved' }).select('number')) as Array<{
      number: number;
    }>;
    if (!left.length) {
      await trx('cartItems').where({ id: cartItemId }).delete();
    } else {
      const item = await trx('cartItems').where({ id: cartItemId }).first('selectedNumbers');
      const keep = new Set(left.map((r) => r.number));
      const chosen = (JSON.parse(item?.selectedNumbers ?? '[]') as number[]).filter((n) => keep.has(n));
      await trx('cartItems')
        .where({ id: cartItemId })
        .update({ quantity: left.length, selectedNumbers: JSON.stringify(chosen), updatedAt: now });
    }
  }
}

/** The customer's entry and the numbers' history, per competition. */
async function recordEntries(trx: Knex.Transaction, order: CustomerOrder, plans: Plan[], now: number) {
  for (const plan of plans) {
    const sold = soldNumbers(plan);
    await trx('userEntries').insert({
      userId: order.userId,
      competitionId: plan.competitionId,
      orderId: order.id,
      ticketNumbers: JSON.stringify(sold),
      purchasedAt: now,
    });
    await recordTicketEvents(
      trx,
      refsOf(plan.competitionId, sold),
      'sold',
      { orderId: order.id, userId: order.userId },
      now,
    );
  }
}

/** What the customer is told about numbers sold in place of the ones taken (null: none). */
function replacementNotice(plans: Plan[]): string | null {
  const notices = plans
    .filter((plan) => plan.replacements.size)
    .map((plan) => {
      const lost = [...plan.replacements.keys()];
      const given = [...plan.replacements.values()].sort((a, b) => a - b);
      return (
        `Your ${numbersWord(lost)} ${listNumbers(lost)} in "${plan.title}" ` +
        `${wasWere(lost)} taken while you were paying, so you have ${listNumbers(given)} instead.`
      );
    });
  return notices.length ? notices.join(' ') : null;
}

/** Versions last: each competition's version row stays locked only until COMMIT. */
async function bumpVersions(trx: Knex.Transaction, plans: Plan[], closes: Set<number>): Promise<Purchase[]> {
  const purchases: Purchase[] = [];
  for (const plan of plans) {
    const version = await bumpVersionNow(trx, plan.competitionId);
    const row = (await trx('competitions').where({ id: plan.competitionId }).first('ticketsSold')) as {
      ticketsSold: number;
    };
    purchases.push({
      competitionId: plan.competitionId,
      version,
      numbers: soldNumbers(plan),
      ticketsSold: Number(row.ticketsSold),
      // The close is its own change: tickets:purchased at `version`, competition:updated after it.
      ...(closes.has(plan.competitionId)
        ? { closedVersion: await bumpVersionNow(trx, plan.competitionId) }
        : {}),
    });
  }
  return purchases;
}

/** Writes the sale decided by decideFulfilment: tickets, entries, credit, cart and order, then versions. */
async function applySale(
  trx: Knex.Transaction,
  { order, items, plans }: Extract<Decision, { kind: 'sell' }>,
  now: number,
): Promise<Sale> {
  const closes = new Set<number>();
  for (const plan of plans) {
    if (await sellTickets(trx, order, plan, now)) closes.add(plan.competitionId);
  }
  await recordReplacements(trx, items, plans);
  await removePaidCartItems(trx, plans, now);
  await recordEntries(trx, order, plans, now);
  const instantWins = await awardSale(trx, order, plans, now);
  if (order.creditAppliedPence > 0) {
    const spent = await spendCredit(
      trx,
      order.userId,
      {
        amountPence: order.creditAppliedPence,
        description: `Order ${formatOrderNumber(order.id)}`,
        orderId: order.id,
      },
      now,
    );
    if (!spent) throw new Error(`credit for order ${order.id} vanished under a row lock`);
  }
  await trx('orders')
    .where({ id: order.id })
    .update({
      status: 'completed',
      paidAt: now,
      notice: replacementNotice(plans),
      failureMessage: null,
      updatedAt: now,
    });
  return {
    purchases: await bumpVersions(trx, plans, closes),
    owner: customerOf(order),
    instantWins,
  };
}

/** Awards the instant wins among the numbers sold, in the sale's transaction (competitions locked). */
async function awardSale(trx: Knex.Transaction, order: CustomerOrder, plans: Plan[], now: number) {
  const won: InstantWin[] = [];
  const winnerName = () => winnerNameOf(trx, order.userId);
  for (const plan of plans) {
    const sale = { competitionId: plan.competitionId, userId: order.userId, orderId: order.id, winnerName };
    won.push(...(await awardInstantWins(trx, { ...sale, numbers: soldNumbers(plan) }, now)));
  }
  return won;
}

/**
 * Turns a reported payment into sold tickets, once. Safe to call any number of times, from any
 * gateway path, concurrently. Never throws for a business reason: a payment that cannot be
 * honoured is refunded and reported as such.
 */
export async function fulfilPayment(
  deps: PaymentDeps,
  report: PaymentReport,
  now = Date.now(),
): Promise<FulfilmentResult> {
  const result = await settlePayment(deps, report, now);
  deps.metrics?.payments.inc({ provider: report.provider, result: result.outcome });
  return result;
}

async function settlePayment(
  deps: PaymentDeps,
  report: PaymentReport,
  now: number,
): Promise<FulfilmentResult> {
  const { db, logger } = deps;
  const found = (
    report.intentId
      ? await Order.query(db).findOne({ stripePaymentIntentId: report.intentId })
      : report.orderId
        ? await Order.query(db).findById(report.orderId)
        : undefined
  ) as Order | undefined;
  if (!found || (report.orderId !== null && report.orderId !== found.id)) {
    logger.warn({ report, orderId: found?.id }, 'payment for no matching order: nothing fulfilled');
    return { outcome: 'rejected', orderId: found?.id ?? report.orderId, reason: 'no matching order' };
  }
  const userId = found.userId;
  if (!userId) return { outcome: 'rejected', orderId: found.id, reason: 'order has no customer' };
  const result = await inUnitOfWork(deps, async (uow) => {
    const decision = await decideFulfilment(uow.trx, found.id, userId, report, now);
    if (decision.kind !== 'sell') return decision;
    const sale = await applySale(uow.trx, decision, now);
    await emitSale(uow, found.id, sale);
    return { kind: 'sold' as const, ...sale };
  });
  if (result.kind === 'refund') {
    return paidByCredit(found)
      ? dropUnpaidOrder(deps, found.id, result.reason, now)
      : refundOrder(deps, found.id, result.reason, now);
  }
  if (result.kind === 'already') return { outcome: 'already_completed', orderId: found.id };
  if (result.kind === 'rejected') {
    logger.error({ report, orderId: found.id, reason: result.reason }, 'payment does not match its order');
    return { outcome: 'rejected', orderId: found.id, reason: result.reason };
  }

  deps.faults?.reach('after-sale-committed');
  await sendConfirmation(deps, found.id);
  if (result.instantWins.length) await sendInstantWinEmails(deps, found.id);
  // Sold out: draw now (exactly once, however many sales and processes race to this point).
  for (const p of result.purchases) {
    if (p.closedVersion !== undefined) await drawAfterSellOut(deps, p.competitionId);
  }
  return { outcome: 'completed', orderId: found.id };
}

/** What a sale tells watchers after COMMIT: the sold numbers, the cart, the order, any close. */
async function emitSale(uow: UnitOfWork, orderId: number, { owner, purchases, instantWins }: Sale) {
  for (const p of purchases) uow.emit('tickets.purchased', p);
  emitInstantWins(uow, instantWins);
  await cartChanged(uow, owner);
  uow.emit('order.changed', { orderId, change: 'paid' });
  for (const p of purchases) {
    if (p.closedVersion !== undefined) await emitCompetitionUpdated(uow, p.competitionId, p.closedVersion);
  }
}

/**
 * A credit-only order that cannot be completed. Nothing was charged and its credit was never
 * debited, so there is no refund: the order is cancelled with the reason as its notice.
 */
async function dropUnpaidOrder(
  deps: PaymentDeps,
  orderId: number,
  reason: string,
  now: number,
): Promise<FulfilmentResult> {
  await inUnitOfWork(deps, async (uow) => {
    const cancelled = await uow
      .trx('orders')
      .where({ id: orderId })
      .whereIn('status', ['pending', 'failed'])
      .update({ status: 'cancelled', cancelledAt: now, notice: reason, updatedAt: now });
    if (cancelled) uow.emit('order.changed', { orderId, change: 'cancelled' });
    // Already cancelled (replaced by a newer checkout): it keeps its time and gets the reason.
    else await uow.trx('orders').where({ id: orderId, status: 'cancelled' }).update({ notice: reason });
  });
  return { outcome: 'not_completed', orderId, reason };
}

/**
 * The payment cannot buy its tickets: the order is cancelled with the reason, and the money sent
 * back through the gateway that took it (one refund per order, whatever the number of calls).
 * If the gateway cannot be reached the order keeps refundedAt null and the next delivery of the
 * same payment (or PATCH /api/orders/:id) tries again.
 */
export async function refundOrder(
  deps: PaymentDeps,
  orderId: number,
  reason: string,
  now = Date.now(),
): Promise<FulfilmentResult> {
  const { logger } = deps;
  const order = await inUnitOfWork(deps, async ({ trx }) => {
    const o = (await lockForUpdate(trx, Order.query(trx).findById(orderId))) as Order | undefined;
    if (!o) return undefined;
    if (o.status === 'completed') return o;
    if (!o.refundReason || o.status !== 'cancelled') {
      await trx('orders')
        .where({ id: orderId })
        .update({
          status: 'cancelled',
          cancelledAt: o.cancelledAt ?? now,
          refundReason: o.refundReason ?? reason,
          updatedAt: now,
        });
      o.refundReason = o.refundReason ?? reason;
    }
    return o;
  });
  if (!order) return { outcome: 'rejected', orderId, reason: 'order not found' };
  if (order.status === 'completed') return { outcome: 'already_completed', orderId };
  const why = order.refundReason ?? reason;
  if (order.refundedAt) return { outcome: 'refunded', orderId, reason: why, refundPending: false };

  let pending = false;
  if (order.totalPence > 0 && order.stripePaymentIntentId && order.paymentProvider === deps.gateway.name) {
    try {
      const refund = await deps.gateway.refund({
        intentId: order.stripePaymentIntentId,
        amountPence: order.totalPence,
        reason: why,
        orderId,
        idempotencyKey: `refund-order-${orderId}`,
      });
      await recordRefund(deps, orderId, {
        refundReference: refund.id,
        refundedPence: order.totalPence,
        refundedAt: Date.now(),
      });
    } catch (err) {
      pending = true;
      logger.error({ err, orderId }, 'refund failed; it is retried on the next delivery of this payment');
      await recordRefund(deps, orderId, null);
    }
  } else if (order.totalPence > 0) {
    pending = true;
    logger.error(
      { orderId, provider: order.paymentProvider },
      'refund needs a gateway this server does not run',
    );
    await recordRefund(deps, orderId, null);
  } else {
    // Paid wholly by credit: credit is only debited on success, so nothing left the account.
    await recordRefund(deps, orderId, { refundedAt: Date.now() });
  }
  await sendCancellationNotice(deps, orderId, {
    reason: why,
    refunds: order.totalPence > 0 ? [{ method: 'card', amountPence: order.totalPence }] : [],
    cardRefundPending: pending,
  });
  return { outcome: 'refunded', orderId, reason: why, refundPending: pending };
}

/**
 * Records what the gateway refunded (null: nothing yet, the refund is pending) and tells admins
 * the order's refund changed. Called after the gateway answered, outside any other unit of work.
 */
export async function recordRefund(
  deps: { db: Knex; events: EventBus },
  orderId: number,
  refunded: { refundReference?: string; refundedPence?: number; refundedAt: number } | null,
) {
  await inUnitOfWork(deps, async (uow) => {
    if (refunded) await uow.trx('orders').where({ id: orderId }).whereNull('refundedAt').update(refunded);
    uow.emit('order.changed', { orderId, change: 'refunded' });
  });
}

/** A card attempt failed. The holds stay (until they expire) so the customer can try again. */
export async function recordPaymentFailure(deps: PaymentDeps, intentId: string, message: string) {
  const order = (await Order.query(deps.db).findOne({ stripePaymentIntentId: intentId })) as
    | Order
    | undefined;
  if (!order) return;
  await inUnitOfWork(deps, async (uow) => {
    // Never downgrades: a completed or cancelled order stays as it is.
    const changed = await uow
      .trx('orders')
      .where({ id: order.id })
      .whereIn('status', ['pending', 'failed'])
      .update({ status: 'failed', failureMessage: message.slice(0, 255), updatedAt: Date.now() });
    if (changed) uow.emit('order.changed', { orderId: order.id, change: 'failed' });
  });
  deps.metrics?.payments.inc({ provider: order.paymentProvider ?? 'unknown', result: 'failed' });
}

/** The gateway cancelled the payment (abandoned, or replaced by a newer checkout). */
export async function recordPaymentCanceled(deps: PaymentDeps, intentId: string) {
  const order = (await Order.query(deps.db).findOne({ stripePaymentIntentId: intentId })) as
    | Order
    | undefined;
  if (!order) return;
  const now = Date.now();
  await inUnitOfWork(deps, async (uow) => {
    const changed = await uow
      .trx('orders')
      .where({ id: order.id })
      .whereIn('status', ['pending', 'failed'])
      .update({ status: 'cancelled', cancelledAt: now, updatedAt: now });
    if (changed) uow.emit('order.changed', { orderId: order.id, change: 'cancelled' });
  });
}
