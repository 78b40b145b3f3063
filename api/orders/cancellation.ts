import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { CancelOrderInput } from '../../contract/backOffice';
import { formatOrderNumber } from '../../contract/checkout';
import { lockRows } from '../../db/locks';
import { Order } from '../../db/models';
import { addCredit } from '../accounts/credit';
import type { AdminDeps } from '../catalogue/adminCompetitions';
import { emitCompetitionUpdated } from '../draws/drawable';
import type { PaymentGateway } from '../payments/gateway';
import { type Actor, writeAudit } from '../platform/auditLog';
import { conflict, notFound } from '../platform/errors';
import type { Mailer } from '../platform/mailer';
import { inUnitOfWork, type UnitOfWork } from '../platform/unitOfWork';
import { bumpVersionNow, recordTicketChange } from '../tickets/competitionVersions';
import { type ReturnedNumbers, returnSoldNumbers } from '../tickets/selling/returnSoldNumbers';
import { adminOrderDetail } from './adminOrders';
import { refundAtGateway } from './fulfilment/outcomes';
import { type ReturnedInstantWin, returnInstantWins, unrecoveredCreditNotice } from './instantWins/awards';
import { type CancellationNotice, oweCancellationNotice, sendCancellationNotice } from './orderEmails';
import { cancel, markRefunded } from './orderStatus';
import type { AdminOrderRecord } from './presenter';

// An admin cancels an order (docs/product.md#admin-orders): its sold tickets return to general sale in
// one transaction, and a paid order's money goes back through the gateway that took it.
//
//   sold --admin cancels order--> available
//
// The ticket rows are deleted (no row = available), ticketsSold goes down by as many, the order's
// entries are removed (they no longer hold those numbers), site credit spent on it is returned
// through the ledger, and each competition's version is bumped. After COMMIT: one
// `tickets.released` per competition, `order.changed` (cancelled), then the refund.

export interface CancelDeps extends AdminDeps {
  logger: Logger;
  gateway: PaymentGateway;
  mailer: Mailer;
}

export const CANCEL_REASON = 'Cancelled by the site: the payment has been refunded.';
/** A draw is final: its entries (the sold numbers) cannot change afterwards. */
export const DRAWN_ORDER_MESSAGE = "This competition has been drawn; its orders can't be cancelled";
export const DRAW_FIXED_ORDER_MESSAGE =
  "This competition's draw is fixed to a beacon round; its orders can't be cancelled";

const snapshot = (o: Order) => ({
  id: o.id,
  status: o.status,
  totalPence: o.totalPence,
  creditAppliedPence: o.creditAppliedPence,
  refundReason: o.refundReason,
  cancelledAt: o.cancelledAt,
});

export interface CancelResult {
  message: string;
  refund: 'none' | 'refunded' | 'pending' | 'credit';
  /** Instant wins given back; creditRecovered false: spent credit the admin must deal with. */
  instantWinsReturned: ReturnedInstantWin[];
  order: AdminOrderRecord;
}

/** Locks the order as fulfilment does (user, for credit, then order); 409 once cancelled. */
export async function lockOrder(trx: Knex.Transaction, orderId: number): Promise<Order> {
  const peek = (await Order.query(trx).findById(orderId)) as Order | undefined;
  if (!peek) throw notFound('Order not found');
  if (peek.userId) await lockRows(trx, 'user', trx('users').where({ id: peek.userId }).first('id'));
  const order = (await lockRows(trx, 'order', Order.query(trx).findById(orderId))) as Order;
  if (order.status === 'cancelled')
    throw conflict(`Order ${formatOrderNumber(orderId)} has already been cancelled.`);
  return order;
}

type SoldTicket = { id: number; competitionId: number; number: number };

/**
 * Locks the order's competitions as a draw locks them, so a draw and this cancel never interleave:
 * either the draw committed first (refused here) or it waits and draws without these numbers.
 */
export async function lockUndrawnCompetitions(trx: Knex.Transaction, competitionIds: number[]) {
  assertUndrawn(await lockCompetitions(trx, competitionIds));
}

type LockedCompetition = { id: number; drawnAt: number | null; drawBeaconRound: number | null };

const lockCompetitions = async (trx: Knex.Transaction, competitionIds: number[]) =>
  (await lockRows(
    trx,
    'competition',
    trx('competitions')
      .whereIn('id', competitionIds)
      .orderBy('id')
      .select('id', 'drawnAt', 'drawBeaconRound'),
  )) as LockedCompetition[];

function assertUndrawn(competitions: LockedCompetition[]) {
  const drawn = competitions.filter((c) => c.drawnAt !== null).map((c) => Number(c.id));
  if (drawn.length) throw conflict(DRAWN_ORDER_MESSAGE, { competitionIds: drawn });
  // Once the beacon round is fixed the entries are final: whoever could see the round's randomness
  // (and knew the seed) must not be able to change the outcome by removing entries.
  const fixed = competitions.filter((c) => c.drawBeaconRound !== null).map((c) => Number(c.id));
  if (fixed.length) throw conflict(DRAW_FIXED_ORDER_MESSAGE, { competitionIds: fixed });
}

/** The order's sold numbers go back on sale, per competition (ascending), and its entries go. */
async function returnOrderTickets(
  trx: Knex.Transaction,
  order: Order,
  now: number,
): Promise<ReturnedNumbers[]> {
  // A plain read names the competitions to lock, then a locking read takes the tickets (a plain one
  // could predate a partial refund's COMMIT, backOffice/partialRefund.ts). A ticket found in a
  // competition not locked (a sale committed meanwhile) would escape the draw check: refused.
  const seen = (await trx('tickets').where({ orderId: order.id }).distinct('competitionId')) as Array<{
    competitionId: number;
  }>;
  const competitions = await lockCompetitions(trx, [...new Set(seen.map((l) => Number(l.competitionId)))]);
  const sold = (await lockRows(
    trx,
    'ticket',
    trx('tickets')
      .where({ orderId: order.id, status: 'sold' })
      .orderBy([{ column: 'competitionId' }, { column: 'number' }])
      .select('id', 'competitionId', 'number'),
  )) as SoldTicket[];
  const byCompetition = new Map<number, SoldTicket[]>();
  for (const t of sold)
    byCompetition.set(t.competitionId, [...(byCompetition.get(t.competitionId) ?? []), t]);
  const locked = new Set(competitions.map((c) => Number(c.id)));
  if ([...byCompetition.keys()].some((id) => !locked.has(Number(id))))
    throw conflict('The order changed while it was being cancelled; try again.');
  // Only the competitions whose numbers go back must be undrawn (a pending order has none).
  assertUndrawn(competitions.filter((c) => byCompetition.has(Number(c.id))));
  const about = { orderId: order.id, userId: order.userId, note: `order ${formatOrderNumber(order.id)}` };
  const returned: ReturnedNumbers[] = [];
  for (const [competitionId, tickets] of byCompetition) {
    returned.push(await returnSoldNumbers(trx, competitionId, tickets, about, now));
  }
  await trx('userEntries').where({ orderId: order.id }).delete();
  return returned;
}

/**
 * The cancel's unit of work: tickets back on sale, instant wins and spent credit returned, the
 * order cancelled with the admin's reason and audited, then the versions and events. Refunded to
 * site credit, the card payment becomes a ledger row here and no gateway refund follows.
 */
async function cancelInTransaction(
  uow: UnitOfWork,
  actor: Actor | null,
  orderId: number,
  input: CancelOrderInput,
  now: number,
  notify: boolean,
) {
  const { trx } = uow;
  const order = await lockOrder(trx, orderId);
  const paid = order.status === 'completed';
  // Tickets refunded on their own earlier (backOffice/partialRefund.ts) already took part of it back.
  const cardLeft = order.totalPence - order.refundedPence;
  const cardPaid = paid && cardLeft > 0 && Boolean(order.paymentIntentId) && !order.refundedAt;
  const toCredit = cardPaid && input.refundTo === 'credit';
  if (toCredit && !order.userId) throw conflict('A guest order can only be refunded to the card.');
  const returned = await returnOrderTickets(trx, order, now);
  // Its instant wins go back: unspent prize credit is taken back before any credit is refunded.
  const instantWins = await returnInstantWins(trx, orderId, now);
  const number = formatOrderNumber(orderId);
  if (paid && order.userId && order.creditAppliedPence > 0) {
    const description = `Refund for cancelled order ${number}`;
    await addCredit(trx, order.userId, { amountPence: order.creditAppliedPence, description, orderId }, now);
  }
  if (toCredit) {
    const description = `Card payment of cancelled order ${number} returned as site credit`;
    await addCredit(trx, order.userId!, { amountPence: cardLeft, description, orderId }, now);
    await markRefunded(trx, orderId, { refundedPence: order.totalPence, refundedAt: now });
  }
  const refundDue = cardPaid && !toCredit;
  await cancel(trx, orderId, refundDue ? CANCEL_REASON : order.refundReason, now);
  await trx('orders').where({ id: orderId }).update({ cancellationReason: input.reason });
  const after = {
    ...snapshot(order),
    status: 'cancelled',
    cancelledAt: now,
    cancellationReason: input.reason,
    refundTo: cardPaid ? input.refundTo : null,
    ticketsReturned: returned.reduce((n, r) => n + r.numbers.length, 0),
    ...(instantWins.length ? { instantWinsReturned: instantWins } : {}),
  };
  await writeAudit(trx, actor, 'order.cancel', { type: 'order', id: orderId }, snapshot(order), after, now);

  for (const r of returned) await recordTicketChange(uow, r);
  uow.emit('order.changed', { orderId, change: 'cancelled' });
  // Watchers see a returned prize as retired.
  for (const competitionId of new Set(instantWins.map((w) => w.competitionId))) {
    await emitCompetitionUpdated(uow, competitionId, await bumpVersionNow(trx, competitionId));
  }
  // A competition's bulk refund tells each entrant once, for all their orders: no notice per order,
  // now or when a pending refund goes through later (the notice's claim is taken here).
  if (!notify) await trx('orders').where({ id: orderId }).update({ cancellationNoticeSentAt: now });
  // With no card refund to wait for, the customer's notice is owed with the cancellation itself.
  const notice =
    refundDue || !notify
      ? null
      : await oweCancellationNotice(
          trx,
          orderId,
          cancelNotice(order, input.reason, toCredit ? 'credit' : 'none'),
        );
  return {
    order,
    refundDue,
    toCredit,
    openIntent: !paid ? order.paymentIntentId : null,
    instantWins,
    notice,
  };
}

/** What the customer is told about an order an admin cancelled: why, each amount and where it went. */
function cancelNotice(
  order: Order,
  reason: string,
  refund: 'refunded' | 'pending' | 'credit' | 'none',
): CancellationNotice {
  const cardLeft = order.totalPence - order.refundedPence;
  const creditBack =
    (order.status === 'completed' ? order.creditAppliedPence : 0) + (refund === 'credit' ? cardLeft : 0);
  const card = refund === 'refunded' || refund === 'pending';
  return {
    reason: `Our team gave this reason: ${reason}`,
    refunds: [
      ...(card ? [{ method: 'card' as const, amountPence: cardLeft }] : []),
      ...(creditBack > 0 ? [{ method: 'site credit' as const, amountPence: creditBack }] : []),
    ],
    cardRefundPending: refund === 'pending',
  };
}

export async function cancelOrder(
  deps: CancelDeps,
  actor: Actor | null,
  orderId: number,
  input: CancelOrderInput,
  now = Date.now(),
  /** false: no e-mail about this order (a competition's bulk refund writes one per entrant). */
  notify = true,
): Promise<CancelResult> {
  const outcome = await inUnitOfWork(deps, (uow) =>
    cancelInTransaction(uow, actor, orderId, input, now, notify),
  );

  // A payment still open must never take money now (one that does anyway is refunded by fulfilment).
  if (outcome.openIntent && outcome.order.paymentProvider === deps.gateway.name) {
    await deps.gateway.cancelIntent(outcome.openIntent).catch((err) => {
      deps.logger.warn({ err, orderId }, 'could not cancel the payment of a cancelled order');
    });
  }
  const { order } = outcome;
  // The gateway refund, once per order (idempotency key). A failure leaves it pending and logged.
  // A refund that goes through owes the notice with its record; a pending one just after.
  const refund = outcome.refundDue
    ? await refundAtGateway(
        deps,
        order,
        CANCEL_REASON,
        notify ? cancelNotice(order, input.reason, 'refunded') : undefined,
      )
    : outcome.toCredit
      ? ('credit' as const)
      : ('none' as const);
  if (refund === 'pending' && notify)
    await sendCancellationNotice(deps, orderId, cancelNotice(order, input.reason, 'pending'));
  if (outcome.notice) await deps.mailer.outbox.deliver([outcome.notice]);
  const unrecovered = unrecoveredCreditNotice(outcome.instantWins);
  return {
    message: `Order ${formatOrderNumber(orderId)} cancelled, tickets returned to general sale.${
      outcome.instantWins.length
        ? ' Its instant wins are retired: their numbers were already public, so they are not won again.'
        : ''
    }${unrecovered ? ` ${unrecovered}` : ''}`,
    refund,
    instantWinsReturned: outcome.instantWins,
    order: await adminOrderDetail(deps.db, orderId),
  };
}
