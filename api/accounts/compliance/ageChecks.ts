import type { Knex } from 'knex';
import { DATE_OF_BIRTH_FIXED_MESSAGE } from '../../../contract/age';
import { User } from '../../../db/models';
import { type Actor, writeAudit } from '../../platform/auditLog';
import { conflict } from '../../platform/errors';
import { lockTarget } from '../adminUsers';

// Age checks (docs/product.md#age-checks): the date of birth an account made before it was asked
// gives once, and the admin's record of a document check. Both audited.

/** The customer's own date of birth, once: a customer can never change it (409 when set). */
export async function setOwnDateOfBirth(
  db: Knex,
  user: Actor,
  dateOfBirth: string,
  now = Date.now(),
): Promise<User> {
  return db.transaction(async (trx) => {
    const target = await lockTarget(trx, user.id);
    if (target.dateOfBirth) throw conflict(DATE_OF_BIRTH_FIXED_MESSAGE);
    await trx('users').where({ id: target.id }).update({ dateOfBirth, updatedAt: now });
    // The audit log outlives a deletion: it records that the date was given, not the date.
    await writeAudit(
      trx,
      user,
      'user.date_of_birth',
      { type: 'user', id: target.id },
      null,
      { given: true },
      now,
    );
    return (await User.query(trx).findById(target.id)) as User;
  });
}

/**
 * The admin has seen a document proving the customer's age: who and when are recorded (the first
 * check stands; asking again changes nothing). Refused while the account has no date of birth.
 */
export async function markAgeVerified(
  db: Knex,
  admin: Actor,
  userId: number,
  now = Date.now(),
): Promise<User> {
  return db.transaction(async (trx) => {
    const target = await lockTarget(trx, userId);
    if (target.ageVerifiedAt !== null) return target;
    if (!target.dateOfBirth)
      throw conflict(
        'This account has no date of birth yet: the customer gives it before their next purchase.',
      );
    await trx('users')
      .where({ id: userId })
      .update({ ageVerifiedAt: now, ageVerifiedBy: admin.id, updatedAt: now });
    await writeAudit(
      trx,
      admin,
      'user.age_verified',
      { type: 'user', id: userId },
      { ageVerifiedAt: null },
      { ageVerifiedAt: now, ageVerifiedBy: admin.id },
      now,
    );
    return (await User.query(trx).findById(userId)) as User;
  });
}
