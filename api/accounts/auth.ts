import type { Knex } from 'knex';
import type { RegisterInput } from '../../contract/auth';
import { isUniqueViolation } from '../../db/dialect';
import { User } from '../../db/models';
import { conflict } from '../platform/errors';
import { ownerFilter } from '../tickets/cartQueries';
import { grantSignUpPromos } from './credit';
import { hashPassword, verifyPassword } from './passwords';

const USERNAME_TAKEN = 'That username is already taken. Please choose another.';
const EMAIL_TAKEN = 'An account with this email address already exists. Please log in instead.';

/** A real hash of a random password, so an unknown username costs as much as a wrong password. */
let dummyHash: Promise<string> | undefined;
const timingDecoy = () => {
  dummyHash ??= hashPassword(`decoy-${Math.random()}`);
  return dummyHash;
};

async function duplicateMessage(db: Knex, username: string, email: string): Promise<string | undefined> {
  if (await User.query(db).whereRaw('lower(??) = ?', ['username', username.toLowerCase()]).first())
    return USERNAME_TAKEN;
  if (await User.query(db).whereRaw('lower(??) = ?', ['email', email.toLowerCase()]).first())
    return EMAIL_TAKEN;
  return undefined;
}

/**
 * Creates a customer account and grants the sign-up promos, all in one transaction. Only the
 * fields of the contract are stored: role is always 'user' and credit comes only from promos.
 */
export async function registerUser(db: Knex, input: RegisterInput, now = Date.now()): Promise<User> {
  const taken = await duplicateMessage(db, input.username, input.email);
  if (taken) throw conflict(taken);
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction(async (trx) => {
      const user = await User.query(trx).insertAndFetch({
        username: input.username,
        email: input.email,
        passwordHash,
        firstName: input.firstName || null,
        lastName: input.lastName || null,
        phoneNumber: input.phoneNumber,
        role: 'user',
        siteCreditPence: 0,
        deletedAt: null,
      });
      await grantSignUpPromos(trx, user.id, now);
      return User.query(trx).findById(user.id).throwIfNotFound();
    });
  } catch (err) {
    // Lost a race with a registration of the same name between the check and the insert.
    if (isUniqueViolation(err))
      throw conflict((await duplicateMessage(db, input.username, input.email)) ?? USERNAME_TAKEN);
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

/**
 * Whether the password is the user's. An unknown user is checked against a decoy hash, so unknown
 * users and wrong passwords take as long and look alike.
 */
export async function passwordMatches(user: User | undefined, password: string): Promise<boolean> {
  const ok = await verifyPassword(password, user?.passwordHash ?? (await timingDecoy()));
  return Boolean(user) && ok;
}

/**
 * Whatever the guest held before signing in (their cart) now belongs to the account too. The held
 * rows follow their items, so per-person limits count them for the account on any device.
 */
export async function claimGuestCart(
  trx: Knex.Transaction,
  guestId: string,
  userId: number,
): Promise<number> {
  const updatedAt = Date.now();
  // The guest's rows that no account has claimed yet.
  const guest = { guestId, userId: null };
  await trx('tickets')
    .where(ownerFilter(guest, 'tickets'))
    .where({ status: 'reserved' })
    .update({ userId, updatedAt });
  return trx('cartItems').where(ownerFilter(guest, 'cartItems')).update({ userId, updatedAt });
}

export async function updatePhoneNumber(db: Knex, userId: number, phoneNumber: string): Promise<User> {
  return User.query(db).patchAndFetchById(userId, { phoneNumber });
}
