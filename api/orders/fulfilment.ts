import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { formatOrderNumber } from '../../contract/checkout';
import { isUniqueViolation, lockForUpdate } from '../../db/dialect';
import { Order, OrderItem, User } from '../../db/models';
import { spendCredit } from '../accounts/credit';
import { drawAfterSellOut, emitCompetitionUpdated } from '../draws/draws';
import type { IntentState, PaymentGateway } from '../payments/gateway';
import type { EventBus } from '../platform/events';
import type { Mailer } from '../platform/mailer';
import { inUnitOfWork, RetryTransaction, type UnitOfWork } from '../platform/unitOfWork';
import { pickAvailable, unavailableNumbers } from '../tickets/reservations';
import { recordTicketEvents, refsOf } from '../tickets/ticketHistory';
import { bumpVersion } from '../tickets/ticketTransactions';
import { confirmationEmail } from './confirmationEmail';
import { loadOrder } from './orders';

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
}

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
  /** Nothing was done: the payment does not match an order of ours. */
  | { outcome: 'rejected'; orderId: number | null; reason: string };

/** Thrown inside the fulfilment transaction to roll it back and refund instead. */
class RefundRequired extends Error {}

const REPLACED_ORDER_REASON =
  'This checkout had been replaced by a newer one before the payment arrived, so the payment has been refunded.';

const listNumbers = (ns: number[]) =>
  ns.length === 1 ? String(ns[0]) : `${ns.slice(0, -1).join(', ')} and ${ns[ns.length - 1]}`;

interface Purchase {
  competitionId: number;
  version: number;
  numbers: number[];
  ticketsSold: number;
  /** Set when this sale sold an auto-win competition's last ticket and so closed it. */
  closedVersion?: number;
}

type TxOutcome =
  | { kind: 'already' }
  | { kind: 'rejected'; reason: string }
  | { kind: 'completed'; purchases: Purchase[]; owner: { guestId: string; userId: number | null } };

interface TicketRow {
  id: number;
  number: number;
  status: 'reserved' | 'sold';
  userId: number | null;
  sessionId: string | null;
  cartItemId: number | null;
  expiresAt: number | null;
}

async function completeOrder(
  trx: Knex.Transaction,
  orderId: number,
  userId: number,
  report: PaymentReport,
  now: number,
): Promise<TxOutcome> {
  // Lock order: user (credit balance) -> order -> competitions -> tickets -> cart items -> versions.
  // Checkout locks user -> order too, so the two never wait on each other in opposite orders. The
  // first reads are locking reads, so on MySQL the transaction's snapshot is taken only after the
  // order is ours: a fulfilment that waited here sees everything the previous one committed.
  await lockForUpdate(trx, trx('users').where({ id: userId }).first('id'));
  const order = (await lockForUpdate(trx, Order.query(trx).findById(orderId))) as Order | undefined;
  if (!order?.userId) return { kind: 'rejected', reason: 'order not found' };
  if (order.status === 'completed') return { kind: 'already' };

  if (order.paymentProvider !== report.provider) {
    return {
      kind: 'rejected',
      reason: `paid through ${report.provider}, order uses ${order.paymentProvider}`,
    };
  }
  if (report.provider !== 'credit' && order.stripePaymentIntentId !== report.intentId) {
    return { kind: 'rejected', reason: 'the payment is not the one made for this order' };
  }
  if (report.amountPence !== order.totalPence || report.currency.toLowerCase() !== order.currency) {
    return {
      kind: 'rejected',
      reason: `paid ${report.amountPence} ${report.currency}, order is ${order.totalPence} ${order.currency}`,
    };
  }
  if (order.status === 'cancelled') throw new RefundRequired(order.refundReason ?? REPLACED_ORDER_REASON);

  // pending, or failed (a declined card followed by a good one): sell the order's numbers.
  const items = (await OrderItem.query(trx).where({ orderId }).orderBy('id')) as OrderItem[];
  const byCompetition = new Map<number, number[]>();
  for (const i of items) {
    byCompetition.set(i.competitionId, [...(byCompetition.get(i.competitionId) ?? []), ...i.selectedNumbers]);
  }
  const competitionIds = [...byCompetition.keys()].sort((a, b) => a - b);

  interface Plan {
    competitionId: number;
    title: string;
    autoWin: boolean;
    totalTickets: number;
    numbers: number[];
    mine: TicketRow[];
    stale: number[];
    insert: number[];
    replacements: Map<number, number>;
  }
  const plans: Plan[] = [];
  for (const competitionId of competitionIds) {
    const numbers = [...byCompetition.get(competitionId)!].sort((a, b) => a - b);
    const competition = await lockForUpdate(
      trx,
      trx('competitions')
        .where({ id: competitionId })
        .first('id', 'title', 'status', 'endDate', 'totalTickets', 'autoWin', 'drawnAt'),
    );
    const title = competition?.title ?? items.find((i) => i.competitionId === competitionId)?.title ?? '';
    const closedMessage = `"${title}" closed before your payment arrived, so the payment has been refunded.`;
    // Closed (end date passed or ended): a payment started before the close may still finish
    // while its own holds last (docs/draws.md). Never into an archived or drawn competition.
    const closed = competition?.status !== 'active' || Number(competition.endDate) <= now;
    const startedBeforeClose = Boolean(competition) && order.createdAt < Number(competition.endDate);
    if (!competition || competition.status === 'archived' || competition.drawnAt) {
      throw new RefundRequired(closedMessage);
    }
    if (closed && !startedBeforeClose) throw new RefundRequired(closedMessage);
    const rows = (await lockForUpdate(
      trx,
      trx('tickets')
        .where({ competitionId })
        .whereIn('number', numbers)
        .select('id', 'number', 'status', 'userId', 'sessionId', 'cartItemId', 'expiresAt'),
    )) as TicketRow[];
    const byNumber = new Map(rows.map((r) => [r.number, r]));
    const plan: Plan = {
      competitionId,
      title,
      autoWin: Boolean(competition.autoWin),
      totalTickets: Number(competition.totalTickets),
      numbers,
      mine: [],
      stale: [],
      insert: [],
      replacements: new Map(),
    };
    const lost: number[] = [];
    for (const n of numbers) {
      const r = byNumber.get(n);
      const ours =
        r?.status === 'reserved' &&
        (r.userId === order.userId || (r.userId === null && r.sessionId === order.sessionId));
      if (!r) plan.insert.push(n);
      else if (ours) plan.mine.push(r);
      else if (r.status === 'reserved' && Number(r.expiresAt) <= now) {
        // Someone else's expired hold blocks nobody: it goes, and the number is ours.
        plan.stale.push(r.id);
        plan.insert.push(n);
      } else lost.push(n);
    }
    if (closed && (lost.length || plan.insert.length || plan.mine.some((r) => Number(r.expiresAt) <= now))) {
      // After the close only the customer's own live holds can be paid for: no replacements.
      throw new RefundRequired(closedMessage);
    }
    if (lost.length) {
      // Our hold expired and the number was taken while the customer paid: other free numbers.
      const taken = await unavailableNumbers(trx, competitionId, now);
      for (const n of numbers) taken.add(n);
      const free = Number(competition.totalTickets) - taken.size;
      if (free < lost.length) {
        throw new RefundRequired(
          `Your ${lost.length === 1 ? 'number' : 'numbers'} ${listNumbers(lost)} in "${title}" ` +
            `${lost.length === 1 ? 'was' : 'were'} taken while you were paying and there were not enough other numbers left, so the payment has been refunded.`,
        );
      }
      const picked = pickAvailable(Number(competition.totalTickets), taken, lost.length);
      lost.forEach((n, i) => {
        plan.replacements.set(n, picked[i]!);
        plan.insert.push(picked[i]!);
      });
    }
    plans.push(plan);
  }

  if (order.creditAppliedPence > 0) {
    const user = (await trx('users').where({ id: order.userId }).first('siteCreditPence')) as
      | { siteCreditPence: number }
      | undefined;
    if (!user || user.siteCreditPence < order.creditAppliedPence) {
      throw new RefundRequired(
        'Your site credit had already been used elsewhere when this payment arrived, so the payment has been refunded.',
      );
    }
  }

  // Every check passed: now change things.
  const orderNumber = formatOrderNumber(order.id);
  const touchedCartItems = new Set<number>();
  const notices: string[] = [];
  const closes = new Set<number>();
  for (const plan of plans) {
    await trx('competitions').where({ id: plan.competitionId }).increment('ticketsSold', plan.numbers.length);
    if (plan.autoWin) {
      // An auto-win competition closes when its last ticket sells (and is drawn after COMMIT).
      const closedNow = await trx('competitions')
        .where({ id: plan.competitionId, status: 'active' })
        .where('ticketsSold', '>=', plan.totalTickets)
        .update({ status: 'ended', updatedAt: now });
      if (closedNow) closes.add(plan.competitionId);
    }
    if (plan.stale.length) await trx('tickets').whereIn('id', plan.stale).delete();
    if (plan.mine.length) {
      for (const r of plan.mine) if (r.cartItemId) touchedCartItems.add(r.cartItemId);
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
            sessionId: order.sessionId,
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
    if (plan.replacements.size) {
      const lost = [...plan.replacements.keys()];
      const given = [...plan.replacements.values()].sort((a, b) => a - b);
      notices.push(
        `Your ${lost.length === 1 ? 'number' : 'numbers'} ${listNumbers(lost)} in "${plan.title}" ` +
          `${lost.length === 1 ? 'was' : 'were'} taken while you were paying, so you have ${listNumbers(given)} instead.`,
      );
    }
  }

  // The order's lines record the numbers actually sold.
  const replacementOf = new Map<string, number>();
  for (const plan of plans)
    for (const [a, b] of plan.replacements) replacementOf.set(`${plan.competitionId}:${a}`, b);
  if (replacementOf.size) {
    for (const item of items) {
      const sold = item.selectedNumbers.map((n) => replacementOf.get(`${item.competitionId}:${n}`) ?? n);
      if (sold.some((n, i) => n !== item.selectedNumbers[i])) {
        await trx('orderItems')
          .where({ id: item.id })
          .update({ selectedNumbers: JSON.stringify(sold.sort((a, b) => a - b)) });
      }
    }
  }

  // The cart lines that were paid for leave the cart; a line that still holds numbers added
  // after checkout started keeps them.
  for (const cartItemId of [...touchedCartItems].sort((a, b) => a - b)) {
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

  for (const plan of plans) {
    const sold = plan.numbers.map((n) => plan.replacements.get(n) ?? n).sort((a, b) => a - b);
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

  if (order.creditAppliedPence > 0) {
    const spent = await spendCredit(
      trx,
      order.userId,
      { amountPence: order.creditAppliedPence, description: `Order ${orderNumber}`, orderId: order.id },
      now,
    );
    if (!spent) throw new Error(`credit for order ${order.id} vanished under a row lock`);
  }

  await trx('orders')
    .where({ id: order.id })
    .update({
      status: 'completed',
      paidAt: now,
      notice: notices.length ? notices.join(' ') : null,
      failureMessage: null,
      updatedAt: now,
    });

  // Versions last: each competition's version row stays locked only until COMMIT.
  const purchases: Purchase[] = [];
  for (const plan of plans) {
    const version = await bumpVersion(trx, plan.competitionId);
    const row = (await trx('competitions').where({ id: plan.competitionId }).first('ticketsSold')) as {
      ticketsSold: number;
    };
    purchases.push({
      competitionId: plan.competitionId,
      version,
      numbers: plan.numbers.map((n) => plan.replacements.get(n) ?? n).sort((a, b) => a - b),
      ticketsSold: Number(row.ticketsSold),
      // The close is its own change: tickets:purchased at `version`, competition:updated after it.
      ...(closes.has(plan.competitionId)
        ? { closedVersion: await bumpVersion(trx, plan.competitionId) }
        : {}),
    });
  }
  return {
    kind: 'completed',
    purchases,
    owner: { guestId: order.sessionId ?? '', userId: order.userId },
  };
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
  let result: TxOutcome;
  try {
    const userId = found.userId;
    if (!userId) return { outcome: 'rejected', orderId: found.id, reason: 'order has no customer' };
    result = await inUnitOfWork(deps, async (uow) => {
      const outcome = await completeOrder(uow.trx, found.id, userId, report, now);
      if (outcome.kind === 'completed') await emitSale(uow, found.id, outcome);
      return outcome;
    });
  } catch (err) {
    if (err instanceof RefundRequired) return refundOrder(deps, found.id, err.message, now);
    throw err;
  }
  if (result.kind === 'already') return { outcome: 'already_completed', orderId: found.id };
  if (result.kind === 'rejected') {
    logger.error({ report, orderId: found.id, reason: result.reason }, 'payment does not match its order');
    return { outcome: 'rejected', orderId: found.id, reason: result.reason };
  }

  await sendConfirmation(deps, found.id);
  // Sold out: draw now (exactly once, however many sales and processes race to this point).
  for (const p of result.purchases) {
    if (p.closedVersion !== undefined) await drawAfterSellOut(deps, p.competitionId);
  }
  return { outcome: 'completed', orderId: found.id };
}

/** What a sale tells watchers after COMMIT: the sold numbers, the cart, the order, any close. */
async function emitSale(uow: UnitOfWork, orderId: number, sale: Extract<TxOutcome, { kind: 'completed' }>) {
  const { owner, purchases } = sale;
  for (const p of purchases) uow.emit('tickets.purchased', p);
  uow.emit('cart.changed', { owner });
  uow.emit('order.changed', { orderId, change: 'paid' });
  for (const p of purchases) {
    if (p.closedVersion !== undefined) await emitCompetitionUpdated(uow, p.competitionId, p.closedVersion);
  }
}

/** The confirmation e-mail. A failure is logged, never undoes or fails the sale. */
async function sendConfirmation(deps: PaymentDeps, orderId: number) {
  try {
    const order = await loadOrder(deps.db, orderId);
    const user = order?.userId ? await User.query(deps.db).findById(order.userId) : undefined;
    if (!order || !user) return;
    const sent = await deps.mailer.send(confirmationEmail(order, user, deps.siteName));
    await deps.db('orders').where({ id: orderId }).update({ confirmationSentAt: Date.now() });
    deps.logger.info({ orderId, messageId: sent.messageId, file: sent.file }, 'order confirmation sent');
  } catch (err) {
    deps.logger.error({ err, orderId }, 'order confirmation e-mail failed');
  }
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
