import type { Knex } from 'knex';
import type { PromoCreateInput, PromoUpdateInput } from '../../contract/admin';
import { iso } from '../../contract/dates';
import { penceToPounds, poundsToPence } from '../../contract/money';
import type { SignUpOffer } from '../../contract/site';
import { isUniqueViolation } from '../../db/dialect';
import { lockRows } from '../../db/locks';
import { PromoConfig } from '../../db/models';
import type { AdminDeps } from '../catalogue/adminCompetitions';
import { type Actor, writeAudit } from '../platform/auditLog';
import { badRequest, conflict, notFound } from '../platform/errors';
import { inUnitOfWork } from '../platform/unitOfWork';
import { liveSignUpPromos } from './credit';
import { presentPromo } from './presenter';

// Site-credit promos and the credit reset (docs/product.md#admin-promos). Every balance change
// goes through the ledger (credit_transactions), so for every user the ledger sum equals
// users.site_credit_pence before and after.

const NOT_FOUND = 'Promo not found';
const CODE_TAKEN = 'Another promo already uses that code';

/** A second promo with the same code: the unique index refuses it, whoever saved first. */
async function codeTakenAsConflict<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(CODE_TAKEN, { fields: { code: CODE_TAKEN } });
    throw err;
  }
}

/** All promos, or the active ones (switched on and not past validUntil); newest first. */
export async function listPromos(db: Knex, activeOnly: boolean, now = Date.now()): Promise<PromoConfig[]> {
  const q = PromoConfig.query(db).orderBy([
    { column: 'createdAt', order: 'desc' },
    { column: 'id', order: 'desc' },
  ]);
  if (activeOnly)
    q.where('isActive', true).where((w) => w.whereNull('validUntil').orWhere('validUntil', '>', now));
  return (await q) as PromoConfig[];
}

function columnsOf(input: PromoUpdateInput) {
  const row: Record<string, unknown> = {};
  if (input.name !== undefined) row.name = input.name;
  if (input.description !== undefined) row.description = input.description || null;
  if (input.creditAmount !== undefined) row.creditAmountPence = poundsToPence(input.creditAmount);
  if (input.targetUserType !== undefined) row.targetUserType = input.targetUserType;
  if (input.isActive !== undefined) row.isActive = input.isActive;
  if (input.autoApply !== undefined) row.autoApply = input.autoApply;
  if (input.validFrom !== undefined) row.validFrom = input.validFrom;
  if (input.validUntil !== undefined) row.validUntil = input.validUntil;
  if (input.maxUsesPerUser !== undefined) row.maxUsesPerUser = input.maxUsesPerUser;
  if (input.totalMaxUses !== undefined) row.totalMaxUses = input.totalMaxUses;
  if (input.code !== undefined) row.code = input.code;
  return row;
}

const VALIDITY_ORDER = 'Valid until must be after valid from';

function assertValidityOrder(validFrom: number, validUntil: number | null) {
  if (validUntil !== null && validUntil <= validFrom)
    throw badRequest(VALIDITY_ORDER, { fields: { validUntil: VALIDITY_ORDER } });
}

export async function createPromo(
  deps: AdminDeps,
  actor: Actor,
  input: PromoCreateInput,
  now = Date.now(),
): Promise<PromoConfig> {
  assertValidityOrder(input.validFrom ?? now, input.validUntil);
  return codeTakenAsConflict(
    inUnitOfWork(deps, async ({ trx }) => {
      const [id] = await trx('promoConfigs').insert({
        ...columnsOf({ ...input, validFrom: input.validFrom ?? now }),
        currentUses: 0,
        createdAt: now,
        updatedAt: now,
      });
      const created = (await PromoConfig.query(trx).findById(Number(id)))!;
      await writeAudit(
        trx,
        actor,
        'promo.create',
        { type: 'promo', id: created.id },
        null,
        presentPromo(created),
        now,
      );
      return created;
    }),
  );
}

export async function updatePromo(
  deps: AdminDeps,
  actor: Actor,
  id: number,
  input: PromoUpdateInput,
  now = Date.now(),
): Promise<PromoConfig> {
  return codeTakenAsConflict(
    inUnitOfWork(deps, async ({ trx }) => {
      const current = (await lockRows(trx, 'promo', PromoConfig.query(trx).findById(id))) as
        | PromoConfig
        | undefined;
      if (!current) throw notFound(NOT_FOUND);
      const validFrom = input.validFrom ?? current.validFrom;
      const validUntil = input.validUntil === undefined ? current.validUntil : input.validUntil;
      assertValidityOrder(validFrom, validUntil);
      if (input.totalMaxUses !== undefined && input.totalMaxUses < current.currentUses) {
        const message = `Total max uses cannot be lower than the ${current.currentUses} uses so far`;
        throw conflict(message, { fields: { totalMaxUses: message } });
      }
      // The audit log keeps before and after as the admin's screen shows them.
      const before = presentPromo(current);
      const row = columnsOf(input);
      if (!Object.keys(row).length) return current;
      await trx('promoConfigs')
        .where({ id })
        .update({ ...row, updatedAt: now });
      const updated = (await PromoConfig.query(trx).findById(id))!;
      const after = presentPromo(updated);
      await writeAudit(trx, actor, 'promo.update', { type: 'promo', id }, before, after, now);
      return updated;
    }),
  );
}

/**
 * Deletes the promo and its ledger rows, and takes the credit it granted back off each balance.
 * Credit already spent cannot be taken back: the balance stops at £0 and a ledger row records
 * the difference, so the ledger still sums to the balance.
 */
export async function deletePromo(deps: AdminDeps, actor: Actor, id: number, now = Date.now()) {
  return inUnitOfWork(deps, async ({ trx }) => {
    const promo = (await lockRows(trx, 'promo', PromoConfig.query(trx).findById(id))) as
      | PromoConfig
      | undefined;
    if (!promo) throw notFound(NOT_FOUND);
    const rows = (await trx('creditTransactions')
      .where({ promoConfigId: id })
      .select('userId', 'type', 'amountPence')) as Array<{
      userId: number;
      type: 'credit' | 'debit';
      amountPence: number;
    }>;
    const netByUser = new Map<number, number>();
    for (const r of rows) {
      const signed = (r.type === 'credit' ? 1 : -1) * Number(r.amountPence);
      netByUser.set(r.userId, (netByUser.get(r.userId) ?? 0) + signed);
    }
    const userIds = [...netByUser.keys()].sort((a, b) => a - b);
    const balances = new Map<number, number>();
    if (userIds.length) {
      const locked = (await lockRows(
        trx,
        'user',
        trx('users').whereIn('id', userIds).orderBy('id').select('id', 'siteCreditPence'),
      )) as Array<{ id: number; siteCreditPence: number }>;
      for (const u of locked) balances.set(u.id, Number(u.siteCreditPence));
    }
    await trx('creditTransactions').where({ promoConfigId: id }).delete();
    let adjusted = 0;
    for (const userId of userIds) {
      const net = netByUser.get(userId)!;
      const balance = balances.get(userId) ?? 0;
      const target = balance - net;
      const newBalance = Math.max(0, target);
      if (newBalance > target) {
        await trx('creditTransactions').insert({
          userId,
          type: 'credit',
          amountPence: newBalance - target,
          description: `${promo.name}: credit already spent when the promo was removed`,
          createdAt: now,
        });
      }
      if (newBalance !== balance) {
        await trx('users').where({ id: userId }).update({ siteCreditPence: newBalance, updatedAt: now });
        adjusted++;
      }
    }
    await trx('promoConfigs').where({ id }).delete();
    await writeAudit(
      trx,
      actor,
      'promo.delete',
      { type: 'promo', id },
      presentPromo(promo),
      { transactionsRemoved: rows.length, balancesAdjusted: adjusted },
      now,
    );
    return { transactionsRemoved: rows.length, balancesAdjusted: adjusted };
  });
}

const RESET_BATCH = 500;

/** Every balance to £0, each through a debit row of the ledger. Irreversible. */
export async function resetAllCredits(deps: AdminDeps, actor: Actor, now = Date.now()) {
  return inUnitOfWork(deps, async ({ trx }) => {
    const holders = (await lockRows(
      trx,
      'user',
      trx('users').where('siteCreditPence', '>', 0).orderBy('id').select('id', 'siteCreditPence'),
    )) as Array<{ id: number; siteCreditPence: number }>;
    let totalPence = 0;
    for (let i = 0; i < holders.length; i += RESET_BATCH) {
      const batch = holders.slice(i, i + RESET_BATCH);
      await trx('creditTransactions').insert(
        batch.map((u) => ({
          userId: u.id,
          type: 'debit',
          amountPence: Number(u.siteCreditPence),
          description: 'Site credit reset by the site',
          createdAt: now,
        })),
      );
      await trx('users')
        .whereIn(
          'id',
          batch.map((u) => u.id),
        )
        .update({ siteCreditPence: 0, updatedAt: now });
      for (const u of batch) totalPence += Number(u.siteCreditPence);
    }
    await writeAudit(
      trx,
      actor,
      'credit.reset',
      { type: 'credit', id: null },
      null,
      { users: holders.length, totalPence },
      now,
    );
    const n = holders.length;
    return {
      message: `All site credit has been reset to £0.00 (${n} ${n === 1 ? 'account' : 'accounts'} changed).`,
      usersReset: n,
    };
  });
}

/**
 * The sign-up offer as customers should read it: what a new account gets now. Every live sign-up
 * promo is granted, so the amount is their sum, and the offer as stated ends with the first of
 * them to end.
 */
export async function currentSignUpOffer(db: Knex, now = Date.now()): Promise<SignUpOffer | null> {
  const live = await liveSignUpPromos(db, now);
  if (!live.length) return null;
  const ends = live.flatMap((p) => (p.validUntil === null ? [] : [Number(p.validUntil)]));
  return {
    creditAmount: penceToPounds(live.reduce((sum, p) => sum + Number(p.creditAmountPence), 0)),
    validUntil: ends.length ? iso(Math.min(...ends)) : null,
  };
}
