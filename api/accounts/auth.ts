import type { Knex } from 'knex';
import type { RegisterInput } from '../../contract/auth';
import type { DeliveryAddress } from '../../contract/claims';
import { isUniqueViolation } from '../../db/dialect';
import { shareRows } from '../../db/locks';
import { CartItem, Competition, User } from '../../db/models';
import { conflict } from '../platform/errors';
import type { UnitOfWork } from '../platform/unitOfWork';
import { heldNumbersOf, ownerFilter } from '../tickets/cartQueries';
import { cartChanged } from '../tickets/cartRevision';
import { recordTicketEvents, refsOf } from '../tickets/history/ticketHistory';
import { capOf, lockOwnerCap, selfExcludedUntil, ticketsOfOwner } from '../tickets/holdChecks';
import { deleteItems, emitReleases, versionReleases } from '../tickets/holdRows';
import { hashPassword, verifyPassword } from './passwords';
import { assertMailboxMayPlay, type MailboxKeyOf } from './protection/exclusionRegister';
import { recordReferral } from './referrals/referralCodes';

const USERNAME_TAKEN = 'That username is already taken. Please choose another.';
const EMAIL_TAKEN = 'An account with this email address already exists. Please log in instead.';

/** A real hash of a random password, so an unknown username costs as much as a wrong password. */
let dummyHash: Promise<string> | undefined;
const timingDecoy = () => {
  dummyHash ??= hashPassword(`decoy-${Math.random()}`);
  return dummyHash;
};

/** The 409 for a username or e-mail in use, on the field it is about (undefined: neither is). */
async function duplicateError(db: Knex, username: string, email: string) {
  const inUse = async (column: 'username' | 'email', value: string) =>
    User.query(db).whereRaw('lower(??) = ?', [column, value.toLowerCase()]).first();
  if (await inUse('username', username))
    return conflict(USERNAME_TAKEN, { fields: { username: USERNAME_TAKEN } });
  if (await inUse('email', email)) return conflict(EMAIL_TAKEN, { fields: { email: EMAIL_TAKEN } });
  return undefined;
}

/**
 * Creates a customer account. Only the fields of the contract are stored: role is always 'user'
 * and credit comes only from promos, the welcome promo when the address is confirmed
 * (emailVerification.ts). A mailbox taking a break (the exclusion register) cannot open one.
 */
export async function registerUser(
  db: Knex,
  input: RegisterInput,
  keyOf: MailboxKeyOf,
  now = Date.now(),
): Promise<User> {
  await assertMailboxMayPlay(db, keyOf, input.email, now);
  const taken = await duplicateError(db, input.username, input.email);
  if (taken) throw taken;
  const passwordHash = await hashPassword(input.password);
  const user = await insertUser(db, input, keyOf, passwordHash, now);
  // The link's code, if it names another live account: the referrer's reward waits for the
  // confirmed address and a paid order (referrals/referralRewards.ts).
  await recordReferral(db, user.id, input.referralCode, now);
  return user;
}

async function insertUser(
  db: Knex,
  input: RegisterInput,
  keyOf: MailboxKeyOf,
  passwordHash: string,
  now: number,
) {
  try {
    // No promotion here: the welcome credit waits for the confirmed address (security/emailVerification.ts).
    return await User.query(db).insertAndFetch({
      username: input.username,
      email: input.email,
      mailboxKey: keyOf(input.email),
      passwordHash,
      firstName: input.firstName || null,
      lastName: input.lastName || null,
      phoneNumber: input.phoneNumber,
      dateOfBirth: input.dateOfBirth,
      role: 'user',
      siteCreditPence: 0,
      marketingEmails: input.marketingEmails,
      marketingEmailsUpdatedAt: now,
      emailVerifiedAt: null,
      deletedAt: null,
    });
  } catch (err) {
    // Lost a race with a registration of the same name between the check and the insert.
    if (isUniqueViolation(err))
      throw (
        (await duplicateError(db, input.username, input.email)) ??
        conflict(USERNAME_TAKEN, { fields: { username: USERNAME_TAKEN } })
      );
    throw err;
  }
}

/** The live account a username or email names (case-insensitive), if any. */
export async function findSignInUser(db: Knex, identifier: string): Promise<User | undefined> {
  const key = identifier.trim().toLowerCase();
  return User.query(db)
    .whereNull('deletedAt')
    .where((q) => q.whereRaw('lower(??) = ?', ['username', key]).orWhereRaw('lower(??) = ?', ['email', key]))
    .first();
}

/** The live (not deleted) account with this id, if any. */
export async function findLiveUser(db: Knex, id: number): Promise<User | undefined> {
  return User.query(db).findById(id).whereNull('deletedAt');
}

/**
 * Whether the password is the user's. An unknown user is checked against a decoy hash, so unknown
 * users and wrong passwords take as long and look alike.
 */
export async function passwordMatches(user: User | undefined, password: string): Promise<boolean> {
  const ok = await verifyPassword(password, user?.passwordHash ?? (await timingDecoy()));
  return Boolean(user) && ok;
}

/** Numbers a sign-in let go because the account already had its cap in that competition. */
export interface CapRelease {
  competitionId: number;
  title: string;
  numbers: number[];
  limit: number;
}

const listNumbers = (ns: number[]) =>
  ns.length === 1 ? String(ns[0]) : `${ns.slice(0, -1).join(', ')} and ${ns[ns.length - 1]}`;

/** What the customer is told about a release, e.g. "Numbers 4, 5 and 6 in X were released: ...". */
export const capReleaseNotice = (r: CapRelease) =>
  `${r.numbers.length === 1 ? 'Number' : 'Numbers'} ${listNumbers(r.numbers)} in "${r.title}" ` +
  `${r.numbers.length === 1 ? 'was' : 'were'} released: the limit is ${r.limit} per person.`;

const CAP_RELEASE_NOTE = 'released at sign-in: over the per-person limit';

interface GuestItem {
  id: number;
  selectedNumbers: number[];
  held: number[];
  row: CartItem;
}

/** Competitions the guest holds numbers in, ascending (the order every path locks them in). */
async function guestCompetitions(trx: Knex.Transaction, guestId: string, now: number) {
  const rows: Array<{ competitionId: number }> = await trx('cartItems')
    .where(ownerFilter({ guestId, userId: null }, 'cartItems'))
    .where('expiresAt', '>', now)
    .distinct('competitionId')
    .orderBy('competitionId');
  return rows.map((r) => r.competitionId);
}

/**
 * The guest's live items in these competitions, oldest first, with the numbers each holds, per
 * competition. Read after the cap locks, with locking reads: a hold the guest committed a moment
 * ago (which the claim below would take) is counted too.
 */
async function guestItemsIn(trx: Knex.Transaction, guestId: string, competitionIds: number[], now: number) {
  const itemsQuery = CartItem.query(trx)
    .where(ownerFilter({ guestId, userId: null }, 'cartItems'))
    .whereIn('competitionId', competitionIds)
    .where('expiresAt', '>', now)
    .orderBy('id');
  const items = (await shareRows(trx, 'cartItem', itemsQuery)) as CartItem[];
  const held = await heldNumbersOf(trx, items, { locking: true });
  const byCompetition = new Map<number, GuestItem[]>();
  for (const row of items) {
    const item: GuestItem = {
      id: row.id,
      selectedNumbers: row.selectedNumbers,
      held: held.get(row.id) ?? [],
      row,
    };
    byCompetition.set(row.competitionId, [...(byCompetition.get(row.competitionId) ?? []), item]);
  }
  return byCompetition;
}

/**
 * Keeps the guest's oldest holds that fit under the competition's cap (the account's held plus
 * bought tickets count first) and lets the rest go: whole items, or the highest numbers of the one
 * item that only partly fits. Returns what was released, per competition.
 */
async function releaseOverCap(trx: Knex.Transaction, guestId: string, userId: number, now: number) {
  const releases: CapRelease[] = [];
  const competitionIds = await guestCompetitions(trx, guestId, now);
  // Both the guest's and the account's, every competition's before any cart row (the lock order):
  // holds from this session or another of the account wait.
  for (const competitionId of competitionIds) await lockOwnerCap(trx, competitionId, { guestId, userId });
  const guestItems = competitionIds.length
    ? await guestItemsIn(trx, guestId, competitionIds, now)
    : new Map();
  for (const competitionId of competitionIds) {
    const competition = (await Competition.query(trx).findById(competitionId)) as Competition | undefined;
    if (!competition) continue;
    const limit = await capOf(trx, competition);
    const items: GuestItem[] = guestItems.get(competitionId) ?? [];
    // The account's own tickets only (guestId '' matches no guest row): the guest's come next.
    let room = limit - (await ticketsOfOwner(trx, competitionId, { guestId: '', userId }, now));
    const whole: CartItem[] = [];
    const released: number[] = [];
    for (const item of items) {
      if (item.held.length <= room) {
        room -= item.held.length;
        continue;
      }
      const keep = item.held.slice(0, Math.max(room, 0));
      const drop = item.held.slice(keep.length);
      room = 0;
      released.push(...drop);
      if (!keep.length) {
        whole.push(item.row);
        continue;
      }
      await trx('tickets')
        .where({ cartItemId: item.id, status: 'reserved' })
        .whereIn('number', drop)
        .delete();
      await recordTicketEvents(trx, refsOf(competitionId, drop), 'released', { note: CAP_RELEASE_NOTE });
      await CartItem.query(trx)
        .findById(item.id)
        .patch({
          quantity: keep.length,
          // A chosen-numbers item keeps the numbers it still holds; a Lucky Dip has none.
          ...(item.selectedNumbers.length ? { selectedNumbers: keep } : {}),
          updatedAt: now,
        });
    }
    await deleteItems(trx, whole, CAP_RELEASE_NOTE);
    if (released.length) {
      releases.push({
        competitionId,
        title: competition.title,
        numbers: released.sort((a, b) => a - b),
        limit,
      });
    }
  }
  return releases;
}

/**
 * Whatever the guest held before signing in (their cart) now belongs to the account too, as far as
 * the per-person cap allows: what does not fit is released in the same unit of work, and the
 * answer lists it so the customer is told. The held rows follow their items, so per-person limits
 * count them for the account on any device.
 */
export async function claimGuestCart(
  uow: UnitOfWork,
  guestId: string,
  userId: number,
  now = Date.now(),
): Promise<CapRelease[]> {
  const { trx } = uow;
  const guest = { guestId, userId: null };
  if (await selfExcludedUntil(trx, userId, now)) {
    // An account taking a break holds nothing: what it held as a guest is let go instead.
    const items = (await CartItem.query(trx).where(ownerFilter(guest, 'cartItems'))) as CartItem[];
    emitReleases(uow, await versionReleases(trx, await deleteItems(trx, items, 'self-exclusion')));
    if (items.length) await cartChanged(uow, { guestId, userId });
    return [];
  }
  const releases = await releaseOverCap(trx, guestId, userId, now);
  const changes = await versionReleases(trx, new Map(releases.map((r) => [r.competitionId, [...r.numbers]])));
  emitReleases(uow, changes);
  // The guest's rows that no account has claimed yet.
  await trx('tickets')
    .where(ownerFilter(guest, 'tickets'))
    .where({ status: 'reserved' })
    .update({ userId, updatedAt: now });
  const claimed = await trx('cartItems')
    .where(ownerFilter(guest, 'cartItems'))
    .update({ userId, updatedAt: now });
  if (claimed || releases.length) await cartChanged(uow, { guestId, userId });
  return releases;
}

/** The delivery address kept in My Profile (validated by contract/claims.ts DeliveryAddressSchema). */
export async function updateDeliveryAddress(db: Knex, userId: number, a: DeliveryAddress): Promise<User> {
  return User.query(db).patchAndFetchById(userId, {
    addressLine1: a.line1,
    addressLine2: a.line2 || null,
    addressTown: a.town,
    addressPostcode: a.postcode,
  });
}

export async function updatePhoneNumber(db: Knex, userId: number, phoneNumber: string): Promise<User> {
  return User.query(db).patchAndFetchById(userId, { phoneNumber });
}
