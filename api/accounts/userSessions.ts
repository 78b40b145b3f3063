import type { Knex } from 'knex';
import type { SessionData } from '../platform/sessions';
import { inUnitOfWork, type UnitOfWork, type UnitOfWorkDeps } from '../platform/unitOfWork';

// An admin's change to an account (role, deletion) reaches that user's open pages: every session
// signed in as them is told it ended, so its sockets disconnect and leave private rooms (the
// `admins` room is re-decided from the database when they reconnect).

/** Keys of the sessions signed in as this user. The LIKE narrows; the parsed data decides. */
async function sessionKeysOf(db: Knex, userId: number): Promise<string[]> {
  const rows = (await db('sessions')
    .where('data', 'like', `%"userId":${userId}%`)
    .select('id', 'data')) as Array<{ id: string; data: string }>;
  return rows
    .filter((r) => {
      try {
        return (JSON.parse(r.data) as SessionData).userId === userId;
      } catch {
        return false;
      }
    })
    .map((r) => r.id);
}

/**
 * Ends these sessions in the unit: `signOut` deletes them, and their sockets are told after
 * COMMIT so that they re-authenticate.
 */
export async function endSessions(uow: UnitOfWork, keys: string[], { signOut }: { signOut: boolean }) {
  if (signOut && keys.length) await uow.trx('sessions').whereIn('id', keys).delete();
  for (const sessionKey of keys) uow.emit('session.ended', { sessionKey });
}

/**
 * Called after the account change has committed. `signOut` also deletes the sessions (a deleted
 * account); otherwise they stay signed in and re-read their role from the database on the next
 * request and reconnect.
 */
export async function endUserSessions(
  deps: UnitOfWorkDeps,
  userId: number,
  options: { signOut: boolean },
): Promise<number> {
  return inUnitOfWork(deps, async (uow) => {
    const keys = await sessionKeysOf(uow.trx, userId);
    await endSessions(uow, keys, options);
    return keys.length;
  });
}
