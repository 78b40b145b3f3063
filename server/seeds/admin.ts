import type { Knex } from 'knex';
import { hashPassword } from '../../api/accounts/passwords';
import { isUniqueViolation } from '../../db/dialect';

/**
 * Makes sure the configured admin account exists (ADMIN_USERNAME / ADMIN_PASSWORD), so a fresh
 * production database without demo data can still be administered. Never changes an existing user.
 */
export async function ensureAdminAccount(
  db: Knex,
  username: string,
  password: string,
  now = Date.now(),
): Promise<boolean> {
  const existing = await db('users').whereRaw('lower(username) = ?', [username.toLowerCase()]).first('id');
  if (existing) return false;
  const passwordHash = await hashPassword(password);
  try {
    await db('users').insert({
      username,
      email: `${username.toLowerCase()}@admin.invalid`,
      passwordHash,
      firstName: 'Site',
      lastName: 'Admin',
      phoneNumber: '00000000000',
      role: 'admin',
      siteCreditPence: 0,
      createdAt: now,
      updatedAt: now,
    });
  } catch (err) {
    if (isUniqueViolation(err)) return false; // another process starting at the same time made it
    throw err;
  }
  return true;
}
