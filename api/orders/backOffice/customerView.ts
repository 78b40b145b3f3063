import type { Knex } from 'knex';
import type { CustomerEntryView } from '../../../contract/backOffice';
import { iso } from '../../../contract/dates';
import { Order, User } from '../../../db/models';
import { listCreditTransactions } from '../../accounts/credit';
import { readSpendLimits } from '../../accounts/protection/spendLimits';
import { referralsOf } from '../../accounts/referrals/referralRewards';
import { notFound } from '../../platform/errors';
import type { OrderWithItems } from '../presenter';
import { listNotes } from './customerCare';

// One customer as the back office sees them (docs/product.md#admin-customers): the account, its
// orders (newest first), entries, the credit ledger, the admins' notes, the protection settings and the people it referred (and why any earned nothing).

const RECENT = 100;

export async function customerRecord(db: Knex, userId: number, now = Date.now()) {
  const user = (await User.query(db).findById(userId).whereNull('deletedAt')) as User | undefined;
  if (!user) throw notFound('User not found');
  const orders = (await Order.query(db)
    .where({ userId })
    .withGraphFetched('[items.competition, user]')
    .orderBy('id', 'desc')
    .limit(RECENT)) as OrderWithItems[];
  const entryRows = (await db('userEntries as e')
    .join('competitions as c', 'c.id', 'e.competitionId')
    .where('e.userId', userId)
    .orderBy([
      { column: 'e.purchasedAt', order: 'desc' },
      { column: 'e.id', order: 'desc' },
    ])
    .limit(RECENT)
    .select('e.competitionId', 'c.title', 'e.orderId', 'e.ticketNumbers', 'e.purchasedAt')) as Array<{
    competitionId: number;
    title: string;
    orderId: number;
    ticketNumbers: string | number[];
    purchasedAt: number | string;
  }>;
  const entries: CustomerEntryView[] = entryRows.map((e) => ({
    competitionId: Number(e.competitionId),
    title: e.title,
    orderId: Number(e.orderId),
    ticketNumbers: (typeof e.ticketNumbers === 'string'
      ? (JSON.parse(e.ticketNumbers) as number[])
      : e.ticketNumbers
    ).sort((a, b) => a - b),
    purchasedAt: iso(Number(e.purchasedAt)),
  }));
  return {
    user,
    orders,
    entries,
    ledger: await listCreditTransactions(db, userId),
    notes: await listNotes(db, userId),
    spendLimits: await readSpendLimits(db, userId, now),
    referrals: await referralsOf(db, userId),
  };
}
