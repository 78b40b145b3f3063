import type { Knex } from 'knex';
import type { AccountSessionView } from '../../../contract/account';
import { PASSWORD_INCORRECT } from '../../../contract/account';
import { paidPenceOf } from '../../../contract/bundles';
import { iso } from '../../../contract/dates';
import { penceToPounds } from '../../../contract/money';
import { emailKeyOf } from '../../../contract/postal';
import { CreditTransaction, Order, type OrderItem, type User, UserEntry } from '../../../db/models';
import { writeAudit } from '../../platform/auditLog';
import type { AppDeps } from '../../platform/context';
import { badRequest, conflict } from '../../platform/errors';
import { inUnitOfWork } from '../../platform/unitOfWork';
import { eraseAccount } from '../accountErasure';
import { lockTarget } from '../adminUsers';
import { passwordMatches } from '../auth';
import { presentComplaint } from '../compliance/complaintPresenter';
import { listOwnComplaints } from '../compliance/complaints';
import { presentCreditTransaction, presentPreferences, presentUser } from '../presenter';
import { twoFactorStatus } from '../twoFactor';
import { endUserSessions, sessionPublicId, sessionsOf } from '../userSessions';
import { presentSession } from './sessionPresenter';

// The customer's UK GDPR rights over their own account (docs/product.md#privacy): a copy of their
// data, and deleting the account. Orders, entries and the credit ledger are kept as accounting
// records of a deleted user; everything that names the person goes.

type Deps = Pick<AppDeps, 'db' | 'events' | 'config'>;

export const PAYMENT_IN_PROGRESS =
  'A payment of yours is in progress. Please wait for it to finish, then delete your account.';
export const ADMIN_SELF_DELETE = 'An admin account cannot be deleted here. Ask another admin to delete it.';

/** The customer's sessions, most recently seen first; `currentKey` marks the one asking. */
export async function listAccountSessions(
  deps: Pick<Deps, 'db'>,
  userId: number,
  currentKey: string | undefined,
): Promise<AccountSessionView[]> {
  const sessions = await sessionsOf(deps.db, userId);
  return sessions
    .map(({ key, data }) => presentSession(sessionPublicId(key), data, key === currentKey))
    .sort(
      (a, b) =>
        Number(b.current) - Number(a.current) || (b.lastSeenAt ?? '').localeCompare(a.lastSeenAt ?? ''),
    );
}

/**
 * The postcards recorded for the account, or sent with its address (read here rather than through
 * api/orders, which depends on this module).
 */
async function postalEntriesOf(db: Deps['db'], user: User) {
  const rows = (await db('postalEntries as p')
    .join('competitions as c', 'c.id', 'p.competitionId')
    .where((q) => q.where('p.userId', user.id).orWhere('p.emailKey', emailKeyOf(user.email)))
    .orderBy('p.id')
    .select(
      'p.competitionId',
      'c.title',
      'p.number',
      'p.orderId',
      'p.name',
      'p.email',
      'p.address',
      'p.postcode',
      'p.receivedAt',
    )) as Array<{
    competitionId: number;
    title: string;
    number: number;
    orderId: number;
    name: string;
    email: string;
    address: string;
    postcode: string;
    receivedAt: number;
  }>;
  return rows.map((r) => ({ ...r, receivedAt: iso(Number(r.receivedAt)) }));
}

/** Everything the shop holds about the customer, as GET /api/account/export downloads it. */
/** The export's referrals: the account's code, whether it was referred, and what its link brought (no other person's data). */
async function referralFacts(db: Knex, user: User) {
  const mine = (await db('referrals')
    .where({ referrerUserId: user.id })
    .select('status', 'rewardPence')) as Array<{
    status: string;
    rewardPence: number | null;
  }>;
  const referredBy = await db('referrals').where({ referredUserId: user.id }).first('id');
  return {
    code: user.referralCode,
    joinedWithALink: Boolean(referredBy),
    referred: mine.length,
    rewarded: penceToPounds(
      mine.reduce((sum, r) => sum + (r.status === 'rewarded' ? Number(r.rewardPence) : 0), 0),
    ),
  };
}

export async function exportAccount(
  deps: Pick<Deps, 'db' | 'config'>,
  user: User,
  currentKey: string | undefined,
) {
  const { db } = deps;
  const orders = (await Order.query(db)
    .where({ userId: user.id })
    .withGraphFetched('items')
    .orderBy('id')) as Array<Order & { items?: OrderItem[] }>;
  const entries = (await UserEntry.query(db)
    .where({ userId: user.id })
    .withGraphFetched('competition(title)')
    .modifiers({ title: (q) => q.select('title') })
    .orderBy('id')) as Array<UserEntry & { competition?: { title: string } }>;
  const credit = (await CreditTransaction.query(db)
    .where({ userId: user.id })
    .orderBy('id')) as CreditTransaction[];
  return {
    exportedAt: new Date().toISOString(),
    profile: {
      ...presentUser(user, await twoFactorStatus(deps, user)),
      emailVerifiedAt: user.emailVerifiedAt ? iso(user.emailVerifiedAt) : null,
      publicName: { mode: user.publicNameMode, nickname: user.nickname },
    },
    consent: {
      // Registration cannot be completed without these three; they were given when the account was made.
      termsAndPrivacyPolicy: { agreed: true, at: iso(user.createdAt) },
      aged18OrOver: { confirmed: true, at: iso(user.createdAt) },
      ukResident: { confirmed: true, at: iso(user.createdAt) },
      marketingEmails: presentPreferences(user),
    },
    orders: orders.map((o) => ({
      id: o.id,
      status: o.status,
      paymentProvider: o.paymentProvider,
      subtotal: penceToPounds(o.subtotalPence),
      creditApplied: penceToPounds(o.creditAppliedPence),
      total: penceToPounds(o.totalPence),
      refunded: penceToPounds(o.refundedPence),
      createdAt: iso(o.createdAt),
      paidAt: o.paidAt ? iso(o.paidAt) : null,
      cancelledAt: o.cancelledAt ? iso(o.cancelledAt) : null,
      items: (o.items ?? []).map((i) => ({
        competitionId: i.competitionId,
        title: i.title,
        ticketPrice: penceToPounds(i.ticketPricePence),
        quantity: i.quantity,
        paid: penceToPounds(paidPenceOf(i)),
        numbers: i.selectedNumbers,
      })),
    })),
    entries: entries.map((e) => ({
      competitionId: e.competitionId,
      title: e.competition?.title ?? null,
      orderId: e.orderId,
      numbers: e.ticketNumbers,
      purchasedAt: iso(e.purchasedAt),
    })),
    creditTransactions: credit.map(presentCreditTransaction),
    referrals: await referralFacts(db, user),
    complaints: (await listOwnComplaints(db, user.id)).map(presentComplaint),
    postalEntries: await postalEntriesOf(db, user),
    sessions: await listAccountSessions(deps, user.id, currentKey),
  };
}

/**
 * DELETE /api/account: the password again, then the same deletion as the admin's Delete User.
 * Refused while a payment is in progress (its result would have no account to go to) and for
 * admins.
 */
export async function deleteOwnAccount(deps: Deps, user: User, password: string, now = Date.now()) {
  if (!(await passwordMatches(user, password))) throw badRequest(PASSWORD_INCORRECT);
  if (user.role === 'admin') throw conflict(ADMIN_SELF_DELETE);
  const windowStart = now - deps.config.payments.windowSeconds * 1000;
  await inUnitOfWork(deps, async (uow) => {
    const { trx } = uow;
    await lockTarget(trx, user.id);
    const paying = await trx('orders')
      .where({ userId: user.id, status: 'pending' })
      .where('updatedAt', '>', windowStart)
      .first('id');
    if (paying) throw conflict(PAYMENT_IN_PROGRESS);
    await eraseAccount(uow, user.id, now);
    const self = { id: user.id, username: `deleted-${user.id}` };
    await writeAudit(
      trx,
      self,
      'user.self_delete',
      { type: 'user', id: user.id },
      { id: user.id, role: user.role },
      null,
      now,
    );
  });
  await endUserSessions(deps, user.id, { signOut: true });
}
