import type { Knex } from 'knex';
import { lockRows } from '../../db/locks';
import { User } from '../../db/models';
import type { Role } from '../../db/models/User';
import type { AdminDeps } from '../catalogue/adminCompetitions';
import { type Actor, writeAudit } from '../platform/auditLog';
import { conflict, notFound } from '../platform/errors';
import { inUnitOfWork } from '../platform/unitOfWork';
import { eraseAccount } from './accountErasure';
import { endUserSessions } from './userSessions';

// Users as the admin manages them (docs/product.md#admin-users). An admin cannot
// demote or delete themself, nor the last admin; both checks hold under concurrent requests.

const NOT_FOUND = 'User not found';

export async function listUsers(db: Knex): Promise<User[]> {
  return (await User.query(db).whereNull('deletedAt').orderBy('id', 'asc')) as User[];
}

export async function lockTarget(trx: Knex.Transaction, userId: number): Promise<User> {
  const user = (await lockRows(trx, 'user', User.query(trx).findById(userId).whereNull('deletedAt'))) as
    | User
    | undefined;
  if (!user) throw notFound(NOT_FOUND);
  return user;
}

/**
 * Refuses to leave the site without an admin. The admin rows are locked first, so two admins
 * demoting each other at once are serialised and the second sees the first's change.
 */
async function assertAnotherAdminRemains(trx: Knex.Transaction, message: string) {
  const admins = (await lockRows(
    trx,
    'user',
    trx('users').where({ role: 'admin' }).whereNull('deletedAt').select('id'),
  )) as Array<{
    id: number;
  }>;
  if (admins.length <= 1) throw conflict(message);
}

/** Audit snapshot without personal data (the audit log outlives a deletion). */
const auditView = (u: User) => ({ id: u.id, role: u.role });

export async function changeRole(
  deps: AdminDeps,
  actor: Actor,
  userId: number,
  role: Role,
  now = Date.now(),
): Promise<User> {
  if (userId === actor.id) throw conflict('You cannot change your own role.');
  const { user, changed } = await inUnitOfWork(deps, async ({ trx }) => {
    const target = await lockTarget(trx, userId);
    if (target.role === role) return { user: target, changed: false };
    if (target.role === 'admin') await assertAnotherAdminRemains(trx, 'The last admin cannot be demoted.');
    await trx('users').where({ id: userId }).update({ role, updatedAt: now });
    await writeAudit(
      trx,
      actor,
      'user.role',
      { type: 'user', id: userId },
      auditView(target),
      { id: userId, role },
      now,
    );
    return { user: (await User.query(trx).findById(userId))!, changed: true };
  });
  // Their open pages reconnect and re-read the role (joining or leaving the admins room).
  if (changed) await endUserSessions(deps, userId, { signOut: false });
  return user;
}

/**
 * Deletes the login and personal data (accountErasure.ts: refused while a prize is undelivered);
 * orders, entries and the credit ledger stay. Their sessions end.
 */
export async function deleteUser(deps: AdminDeps, actor: Actor, userId: number, now = Date.now()) {
  if (userId === actor.id) throw conflict('You cannot delete your own account.');
  await inUnitOfWork(deps, async (uow) => {
    const { trx } = uow;
    const target = await lockTarget(trx, userId);
    if (target.role === 'admin') await assertAnotherAdminRemains(trx, 'The last admin cannot be deleted.');
    await eraseAccount(uow, userId, now);
    await writeAudit(trx, actor, 'user.delete', { type: 'user', id: userId }, auditView(target), null, now);
  });
  await endUserSessions(deps, userId, { signOut: true });
}
