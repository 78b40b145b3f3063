import { createHmac } from 'node:crypto';
import type { Knex } from 'knex';
import { lockRows } from '../../../db/locks';
import type { UnitOfWork } from '../../platform/unitOfWork';
import { cartChanged } from '../../tickets/cartRevision';
import { assertNotOnBreak, selfExcludedUntil } from '../../tickets/holdChecks';
import { releaseAccountHolds } from '../../tickets/holdRows';
import { normaliseMailbox } from '../security/mailbox';

// The exclusion register (docs/compliance.md#the-exclusion-register): a break binds the person,
// not one account row. An entry is a keyed hash of the normalised mailbox (the welcome credit's
// normalisation, security/mailbox.ts) and when the break ends. It is written when a break starts,
// outlives a deleted account, and is purged once the break has ended (purgeEndedExclusions, on
// the sweeper's interval). A keyed hash suffices for matching and keeps the plain address out of
// the register: a leaked table cannot be reversed by hashing a list of addresses without the key.

export type MailboxKeyOf = (email: string) => string;

/** The HMAC-SHA-256 of "mailbox:" and the normalised mailbox, keyed with EXCLUSION_REGISTER_KEY. */
export const mailboxKeyer =
  (secret: string): MailboxKeyOf =>
  (email) =>
    createHmac('sha256', secret)
      .update(`mailbox:${normaliseMailbox(email)}`)
      .digest('hex');

/** When the register's break on this key ends, or null when there is none now. */
export async function registeredBreakEnd(db: Knex, keyHash: string, now: number): Promise<number | null> {
  const row = (await db('exclusionRegister').where({ keyHash }).where('endsAt', '>', now).first('endsAt')) as
    | { endsAt: number | string }
    | undefined;
  return row ? Number(row.endsAt) : null;
}

/** 403 self_excluded when the mailbox of this address is on a break (registration, postcards). */
export async function assertMailboxMayPlay(db: Knex, keyOf: MailboxKeyOf, email: string, now: number) {
  assertNotOnBreak(await registeredBreakEnd(db, keyOf(email), now));
}

/**
 * Records a break on the register, never shortening one already there, and puts it on every live
 * account of the same mailbox (their views, marketing and sign-in follow it); returns those
 * accounts' ids other than `userId`, so the caller releases their holds.
 */
async function registerBreak(
  trx: Knex.Transaction,
  input: { userId: number; keyHash: string; endsAt: number },
  now: number,
): Promise<number[]> {
  const { keyHash, endsAt } = input;
  await trx('exclusionRegister')
    .insert({ kind: 'mailbox', keyHash, endsAt, createdAt: now, updatedAt: now })
    .onConflict('keyHash')
    .ignore();
  await trx('exclusionRegister')
    .where({ keyHash })
    .where('endsAt', '<', endsAt)
    .update({ endsAt, updatedAt: now });
  const others = (await lockRows(
    trx,
    'user',
    trx('users')
      .where({ mailboxKey: keyHash })
      .whereNull('deletedAt')
      .whereNot({ id: input.userId })
      .orderBy('id'),
  ).select('id', 'selfExcludedUntil')) as Array<{ id: number; selfExcludedUntil: number | string | null }>;
  for (const other of others) await extendAccountBreak(trx, other, endsAt, now);
  return others.map((o) => o.id);
}

/**
 * registerBreak, then releases the holds of the account and of every other account of the mailbox
 * in the same unit of work (`tickets.released`, `cart.changed` after COMMIT).
 */
export async function bindBreakToMailbox(
  uow: UnitOfWork,
  input: { userId: number; keyHash: string; endsAt: number },
  now: number,
): Promise<void> {
  const others = await registerBreak(uow.trx, input, now);
  for (const id of [input.userId, ...others]) {
    const { items } = await releaseAccountHolds(uow, id, 'self-exclusion');
    if (items.length) await cartChanged(uow, { guestId: '', userId: id });
  }
}

/**
 * After a change of address: an account taking a break carries it to the new mailbox too, so
 * leaving the old address behind (and then the account) does not end it.
 */
export async function carryBreakToNewMailbox(uow: UnitOfWork, userId: number, keyHash: string, now: number) {
  const until = await selfExcludedUntil(uow.trx, userId, now);
  if (until !== null) await bindBreakToMailbox(uow, { userId, keyHash, endsAt: until }, now);
}

/** Puts the break on the account when it ends later than the account's own. */
async function extendAccountBreak(
  trx: Knex.Transaction,
  account: { id: number; selfExcludedUntil: number | string | null },
  endsAt: number,
  now: number,
) {
  const current = Number(account.selfExcludedUntil ?? 0);
  if (current >= endsAt) return;
  // Never shortens a break written since the read.
  await trx('users')
    .where({ id: account.id })
    .where((q) => q.whereNull('selfExcludedUntil').orWhere('selfExcludedUntil', '<', endsAt))
    .update({ ...(current > now ? {} : { selfExcludedAt: now }), selfExcludedUntil: endsAt, updatedAt: now });
}

/**
 * At sign-in: a break on the register for this account's mailbox becomes the account's own, so
 * its view, holds and marketing follow it. Returns when the account's break ends (null: none).
 * A plain read: the user row is written (and so locked) only when there is a break to put on it.
 */
export async function applyRegisterToAccount(
  trx: Knex.Transaction,
  userId: number,
  now: number,
): Promise<number | null> {
  const user = (await trx('users').where({ id: userId }).first('id', 'mailboxKey', 'selfExcludedUntil')) as
    | { id: number; mailboxKey: string | null; selfExcludedUntil: number | string | null }
    | undefined;
  if (!user) return null;
  const registered = user.mailboxKey ? await registeredBreakEnd(trx, user.mailboxKey, now) : null;
  if (registered !== null) await extendAccountBreak(trx, user, registered, now);
  const until = Math.max(Number(user.selfExcludedUntil ?? 0), registered ?? 0);
  return until > now ? until : null;
}

/** Deletes the entries whose break has ended (the sweeper calls it); how many went. */
export async function purgeEndedExclusions(db: Knex, now = Date.now()): Promise<number> {
  return db('exclusionRegister').where('endsAt', '<=', now).delete();
}

/**
 * Gives the live accounts made before migration 027 their mailbox key, a page at a time (start-up;
 * a no-op once done). Deleted accounts have no address left to key.
 */
export async function backfillMailboxKeys(db: Knex, keyOf: MailboxKeyOf, page = 500): Promise<number> {
  let done = 0;
  for (;;) {
    const rows = (await db('users')
      .whereNull('mailboxKey')
      .whereNull('deletedAt')
      .orderBy('id')
      .limit(page)
      .select('id', 'email')) as Array<{ id: number; email: string }>;
    for (const r of rows)
      await db('users')
        .where({ id: r.id })
        .update({ mailboxKey: keyOf(r.email) });
    done += rows.length;
    if (rows.length < page) return done;
  }
}
