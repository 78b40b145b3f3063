import type { Knex } from 'knex';
import type { PromoRedeemedView } from '../../contract/auth';
import { penceToPounds } from '../../contract/money';
import { lockRows, shareRows } from '../../db/locks';
import { PromoConfig, User } from '../../db/models';
import type { AppDeps } from '../platform/context';
import { badRequest, conflict } from '../platform/errors';
import { inUnitOfWork } from '../platform/unitOfWork';
import { assertNotOnBreak, selfExcludedUntil } from '../tickets/holdChecks';
import { waitPhrase } from './accountLimits';
import { grantPromo } from './credit';

// Promo codes a signed-in customer types in My Profile, and the automatic promos for all users
// (docs/product.md#site-credit). Each grant is a ledger row; the per-customer and total limits
// hold however many requests race.

export const UNKNOWN_CODE = 'That promo code is not valid.';
const NOT_YET = 'That promo code is not active yet.';
const EXPIRED = 'That promo code has expired.';
const NEW_CUSTOMERS_ONLY = 'That promo code is for new customers only.';
export const ALREADY_USED = 'You have already used that promo code.';
export const ALL_TAKEN = 'That promo code has been fully claimed.';

/** Tries per account per 15 minutes, so codes cannot be found by guessing. */
const TRIES = 10;

export function createPromoCodes(deps: AppDeps) {
  const tries = deps.rateLimits.limiter({
    name: 'promo-code',
    points: TRIES,
    durationSeconds: 900,
    guesses: true,
  });

  return {
    /**
     * Grants the promo behind `code` to the customer. The customer's row is locked first, so their
     * own parallel redemptions queue and each counts the ledger rows of those before it; the total
     * is taken with one conditional UPDATE (and the table's CHECK backs it up).
     */
    async redeem(userId: number, code: string, now = Date.now()): Promise<PromoRedeemedView> {
      await tries.hit(
        `user:${userId}`,
        (s) => `Too many promo codes tried. Please try again in ${waitPhrase(s)}.`,
      );
      return inUnitOfWork(deps, async ({ trx }) => {
        // Locked before anything is read: on MariaDB the transaction's snapshot starts at its first
        // plain read, and it must start after the previous redemption by this customer committed.
        const user = await lockMailboxAccounts(trx, userId);
        // No credit offers reach someone taking a break (the account's or the mailbox's).
        assertNotOnBreak(await selfExcludedUntil(trx, userId, now));
        const promo = (await PromoConfig.query(trx).where({ code }).first()) as PromoConfig | undefined;
        if (!promo?.isActive) throw badRequest(UNKNOWN_CODE);
        if (promo.validFrom > now) throw badRequest(NOT_YET);
        if (promo.validUntil !== null && promo.validUntil <= now) throw badRequest(EXPIRED);
        // 'New users' are the accounts opened since the promo started.
        if (promo.targetUserType === 'new_user' && user.createdAt < promo.validFrom)
          throw badRequest(NEW_CUSTOMERS_ONLY);
        if ((await usesOf(trx, user, promo)) >= promo.maxUsesPerUser) throw conflict(ALREADY_USED);
        const description = `Promo code ${code}: ${promo.name}`;
        if (!(await grantPromo(trx, userId, promo, description, now))) throw conflict(ALL_TAKEN);
        return {
          amount: penceToPounds(promo.creditAmountPence),
          credit: penceToPounds(user.siteCreditPence + promo.creditAmountPence),
          description,
        };
      });
    },
  };
}

/**
 * Locks the customer's row and those of every other account of the same mailbox, in id order (so
 * two accounts of one mailbox redeeming at once queue rather than deadlock), and returns the
 * customer's.
 */
async function lockMailboxAccounts(trx: Knex.Transaction, userId: number): Promise<User> {
  const rows = (await lockRows(
    trx,
    'user',
    User.query(trx)
      .where('id', userId)
      .orWhereIn(
        'mailboxKey',
        trx('users').select('mailboxKey').where('id', userId).whereNotNull('mailboxKey'),
      )
      .orderBy('id'),
  )) as User[];
  return rows.find((u) => u.id === userId)!;
}

/**
 * How many times the customer has had this promo. A "new customers only" one counts per mailbox,
 * as the welcome credit does: every account of the same normalised address together. A locking
 * read, so it sees what a redemption committed while this one waited for the locks (the locking
 * read of the accounts' rows reads their mailbox in a subquery, which starts the snapshot).
 */
async function usesOf(trx: Knex.Transaction, user: User, promo: PromoConfig): Promise<number> {
  const perMailbox = promo.targetUserType === 'new_user' && user.mailboxKey;
  const used = await shareRows(
    trx,
    'credit',
    trx('creditTransactions')
      .where({ promoConfigId: promo.id, type: 'credit' })
      .where((q) =>
        perMailbox
          ? q.whereIn('userId', trx('users').select('id').where({ mailboxKey: user.mailboxKey }))
          : q.where({ userId: user.id }),
      )
      .count({ n: '*' }),
  );
  return Number(used[0]?.n ?? 0);
}

/**
 * At sign-in: each live auto-apply promo aimed at all users that this customer has not had yet,
 * granted once (a code can add further uses up to its per-customer limit). Registration grants
 * its own promos; this reaches the customers who had an account before the promo started.
 */
export async function grantStandingPromos(
  trx: Knex.Transaction,
  userId: number,
  now = Date.now(),
): Promise<number> {
  // First, as in redeem(): the customer's other sign-ins queue behind this one.
  await lockRows(trx, 'user', User.query(trx).findById(userId));
  const promos = (await PromoConfig.query(trx)
    .where({ isActive: true, autoApply: true, targetUserType: 'all' })
    .where('validFrom', '<=', now)
    .where((q) => q.whereNull('validUntil').orWhere('validUntil', '>', now))
    .where('creditAmountPence', '>', 0)
    .whereNotExists((q) =>
      q
        .from('creditTransactions')
        .where({ userId, type: 'credit' })
        .whereRaw('?? = ??', ['promo_config_id', 'promo_configs.id']),
    )
    .orderBy('id')) as PromoConfig[];
  let granted = 0;
  for (const promo of promos) {
    if (!(await grantPromo(trx, userId, promo, promo.name, now))) continue; // fully claimed by others first
    granted += promo.creditAmountPence;
  }
  return granted;
}
