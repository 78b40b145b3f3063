import type { Knex } from 'knex';
import { ticketCostsOf } from '../../../contract/bundles';
import { formatOrderNumber } from '../../../contract/checkout';
import type { InstantWin, OrderItem } from '../../../db/models';
import { spendCredit } from '../../accounts/credit';
import type { UnitOfWork } from '../../platform/unitOfWork';
import { recordTicketChange } from '../../tickets/competitionVersions';
import { type SoldNumbers, sellNumbers } from '../../tickets/selling/sellNumbers';
import { awardInstantWins, winnerNameOf } from '../instantWins/awards';
import { markPaid } from '../orderStatus';
import {
  type CustomerOrder,
  customerOf,
  type Decision,
  listNumbers,
  numbersWord,
  type Plan,
  wasWere,
} from './decision';

// Fulfilment's applying half: writes the sale decision.ts decided, in its transaction.
//
//   reserved (the customer's holds) --payment succeeded--> sold (order, user)

export interface Sale {
  /** Per competition, with whether the sale closed it (an auto-win sell-out: drawn after COMMIT). */
  sold: SoldNumbers[];
  owner: { guestId: string; userId: number | null };
  /** The instant wins this sale won (docs/draws.md#instant-wins). */
  instantWins: InstantWin[];
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
      // A replacement number costs what the number it replaces cost: each keeps its price.
      const costs = ticketCostsOf(item);
      const pairs = sold.map((n, i) => [n, costs[i]!] as const).sort((a, b) => a[0] - b[0]);
      await trx('orderItems')
        .where({ id: item.id })
        .update({
          selectedNumbers: JSON.stringify(pairs.map(([n]) => n)),
          ticketCosts: JSON.stringify(pairs.map(([, c]) => c)),
        });
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

/** The customer's entry (My Entries), per competition. */
async function recordEntries(trx: Knex.Transaction, order: CustomerOrder, sold: SoldNumbers[], now: number) {
  for (const s of sold) {
    await trx('userEntries').insert({
      userId: order.userId,
      competitionId: s.competitionId,
      orderId: order.id,
      ticketNumbers: JSON.stringify(s.numbers),
      purchasedAt: now,
    });
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

/** Awards the instant wins among the numbers sold, in the sale's transaction (competitions locked). */
async function awardSale(trx: Knex.Transaction, order: CustomerOrder, sold: SoldNumbers[], now: number) {
  const won: InstantWin[] = [];
  const winnerName = () => winnerNameOf(trx, order.userId);
  for (const { competitionId, numbers } of sold) {
    const sale = { competitionId, numbers, userId: order.userId, orderId: order.id, winnerName };
    won.push(...(await awardInstantWins(trx, sale, now)));
  }
  return won;
}

/** The order's credit leaves the customer's balance through the ledger (checked by the decision). */
async function spendOrderCredit(trx: Knex.Transaction, order: CustomerOrder, now: number) {
  if (order.creditAppliedPence <= 0) return;
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

/**
 * Writes the sale decided by decideFulfilment: tickets, entries, credit, cart and order, then the
 * versions and `tickets.purchased` (each competition's version row stays locked only until COMMIT).
 */
export async function applySale(
  uow: UnitOfWork,
  { order, items, plans }: Extract<Decision, { kind: 'sell' }>,
  now: number,
): Promise<Sale> {
  const { trx } = uow;
  const buyer = { orderId: order.id, userId: order.userId, guestId: order.guestId };
  const sold: SoldNumbers[] = [];
  for (const plan of plans) {
    const competition = { id: plan.competitionId, autoWin: plan.autoWin, totalTickets: plan.totalTickets };
    sold.push(
      await sellNumbers(
        trx,
        { competition, buyer, held: plan.mine, staleRowIds: plan.stale, free: plan.insert },
        now,
      ),
    );
  }
  await recordReplacements(trx, items, plans);
  await removePaidCartItems(trx, plans, now);
  await recordEntries(trx, order, sold, now);
  const instantWins = await awardSale(trx, order, sold, now);
  await spendOrderCredit(trx, order, now);
  await markPaid(trx, order.id, replacementNotice(plans), now);
  for (const s of sold) await recordTicketChange(uow, s);
  return { sold, owner: customerOf(order), instantWins };
}
