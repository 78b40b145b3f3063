import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { RefundTicketsInput } from '../../../contract/backOffice';
import { costByNumber } from '../../../contract/bundles';
import { formatOrderNumber } from '../../../contract/checkout';
import { formatPence } from '../../../contract/money';
import { lockRows } from '../../../db/locks';
import { OrderItem } from '../../../db/models';
import { addCredit } from '../../accounts/credit';
import type { AdminDeps } from '../../catalogue/adminCompetitions';
import type { PaymentGateway } from '../../payments/gateway';
import { type Actor, writeAudit } from '../../platform/auditLog';
import { conflict } from '../../platform/errors';
import type { FaultInjector } from '../../platform/faults';
import { inUnitOfWork } from '../../platform/unitOfWork';
import { recordTicketChange } from '../../tickets/competitionVersions';
import { returnSoldNumbers } from '../../tickets/selling/returnSoldNumbers';
import { lockOrder, lockUndrawnCompetitions } from '../cancellation';
import { oweCardRefund, sendOwedRefund } from './owedRefunds';

// Refunding some tickets of a paid order (docs/product.md#admin-orders): the chosen numbers go back
// on general sale and exactly their price goes back, to the card or as site credit, in one
// transaction (user, order, competition, ticket: db/locks.ts order). The order stays paid with its
// other tickets. A card refund is owed as a row in that transaction (owedRefunds.ts); after COMMIT:
// `tickets.released`, `order.changed`, then the card refund, retried by the reconciler until sent.

export interface PartialRefundDeps extends AdminDeps {
  logger: Logger;
  gateway: PaymentGateway;
  faults?: FaultInjector;
}

export interface PartialRefundResult {
  message: string;
  refund: 'refunded' | 'pending' | 'credit';
  amountPence: number;
  numbers: number[];
}

type Sold = { id: number; number: number };

/** The chosen numbers as sold on this order, locked; 409 naming any that are not. */
async function soldOnOrder(trx: Knex.Transaction, orderId: number, input: RefundTicketsInput) {
  const sold = (await lockRows(
    trx,
    'ticket',
    trx('tickets')
      .where({ orderId, competitionId: input.competitionId, status: 'sold' })
      .orderBy('number')
      .select('id', 'number'),
  )) as Sold[];
  const mine = new Set(sold.map((t) => Number(t.number)));
  const missing = input.numbers.filter((n) => !mine.has(n));
  if (missing.length)
    throw conflict(`Not sold on this order: ${missing.sort((a, b) => a - b).join(', ')}.`, { missing });
  return { all: sold, chosen: sold.filter((t) => input.numbers.includes(Number(t.number))) };
}

/** What these numbers cost on the order's lines (a number the lines no longer name: the line's price). */
function paidForNumbers(items: OrderItem[], numbers: number[]): number {
  const costOf = costByNumber(items);
  const unit = Number(items[0]!.ticketPricePence);
  return numbers.reduce((sum, n) => sum + (costOf.get(n) ?? unit), 0);
}

/** Once per set of numbers of an order (they can never be sold on this order again). */
function refundKey(orderId: number, input: RefundTicketsInput, numbers: number[]): string {
  const key = createHash('sha256')
    .update(`${input.competitionId}:${numbers.join(',')}`)
    .digest('hex');
  return `refund-order-${orderId}-tickets-${key.slice(0, 32)}`;
}

async function refundInTransaction(
  deps: PartialRefundDeps,
  actor: Actor | null,
  orderId: number,
  input: RefundTicketsInput,
  now: number,
) {
  return inUnitOfWork(deps, async (uow) => {
    const { trx } = uow;
    const order = await lockOrder(trx, orderId);
    if (order.status !== 'completed') throw conflict("Only a paid order's tickets can be refunded.");
    const items = (await OrderItem.query(trx)
      .where({ orderId, competitionId: input.competitionId })
      .orderBy('id')) as OrderItem[];
    if (!items.length) throw conflict('This order has no tickets in that competition.');
    await lockUndrawnCompetitions(trx, [input.competitionId]);
    const { all, chosen } = await soldOnOrder(trx, orderId, input);
    // A locking read: the snapshot of a plain one may predate a change this transaction waited for.
    const left = (await lockRows(
      trx,
      'ticket',
      trx('tickets').where({ orderId, status: 'sold' }).select('id'),
    )) as Array<{ id: number }>;
    if (chosen.length >= left.length) throw conflict('To refund every ticket of the order, cancel it.');
    const won = await trx('instantWins')
      .where({ orderId, competitionId: input.competitionId })
      .whereIn('number', input.numbers)
      .whereNotNull('wonAt')
      .first('number');
    if (won) throw conflict(`Number ${won.number} won an instant prize: cancel the whole order instead.`);

    // Exactly what these tickets cost: a bundle's tickets give back their share of the bundle.
    const amountPence = paidForNumbers(
      items,
      chosen.map((t) => Number(t.number)),
    );
    const cardLeft = order.totalPence - order.refundedPence;
    const toCredit = input.refundTo === 'credit';
    if (toCredit && !order.userId) throw conflict('A guest order can only be refunded to the card.');
    if (!toCredit && (!order.paymentIntentId || order.refundedAt || amountPence > cardLeft))
      throw conflict(
        `${formatPence(Math.max(0, order.refundedAt ? 0 : cardLeft))} of this order can go back to the card; refund it as site credit.`,
      );

    const number = formatOrderNumber(orderId);
    const about = { orderId, userId: order.userId, note: `tickets refunded from order ${number}` };
    const returned = await returnSoldNumbers(trx, input.competitionId, chosen, about, now);
    const keep = all.filter((t) => !input.numbers.includes(Number(t.number))).map((t) => Number(t.number));
    await trx('userEntries')
      .where({ orderId, competitionId: input.competitionId })
      .update({ ticketNumbers: JSON.stringify(keep) });
    if (toCredit) {
      const description = `Refund of ${chosen.length} ticket(s) from order ${number}`;
      await addCredit(trx, order.userId!, { amountPence, description, orderId }, now);
    } else {
      // Claimed now, so a later cancellation refunds only what is left of the card payment; owed
      // as a row, so it is sent even if the gateway call below fails or never happens.
      await trx('orders').where({ id: orderId }).increment('refundedPence', amountPence);
    }
    const owed = toCredit
      ? null
      : await oweCardRefund(
          trx,
          {
            orderId,
            amountPence,
            reason: input.reason,
            idempotencyKey: refundKey(orderId, input, returned.numbers),
          },
          now,
        );
    const before = { id: orderId, refundedPence: order.refundedPence };
    const after = {
      id: orderId,
      competitionId: input.competitionId,
      numbers: returned.numbers,
      amountPence,
      refundTo: input.refundTo,
      reason: input.reason,
    };
    await writeAudit(trx, actor, 'order.refundTickets', { type: 'order', id: orderId }, before, after, now);
    await recordTicketChange(uow, returned);
    uow.emit('order.changed', { orderId, change: 'refunded' });
    return { order, amountPence, numbers: returned.numbers, toCredit, owed };
  });
}

export async function refundTickets(
  deps: PartialRefundDeps,
  actor: Actor | null,
  orderId: number,
  input: RefundTicketsInput,
  now = Date.now(),
): Promise<PartialRefundResult> {
  const done = await refundInTransaction(deps, actor, orderId, input, now);
  const what = `${done.numbers.length} ticket(s) (${done.numbers.join(', ')}) of order ${formatOrderNumber(orderId)}`;
  if (done.toCredit)
    return {
      message: `${what} returned to general sale; ${formatPence(done.amountPence)} added to the customer's site credit.`,
      refund: 'credit',
      amountPence: done.amountPence,
      numbers: done.numbers,
    };
  if ((await sendOwedRefund(deps, done.owed!)) === 'owed')
    return {
      message: `${what} returned to general sale; the card refund of ${formatPence(done.amountPence)} did not go through yet and is retried automatically.`,
      refund: 'pending',
      amountPence: done.amountPence,
      numbers: done.numbers,
    };
  return {
    message: `${what} returned to general sale; ${formatPence(done.amountPence)} refunded to the card.`,
    refund: 'refunded',
    amountPence: done.amountPence,
    numbers: done.numbers,
  };
}
