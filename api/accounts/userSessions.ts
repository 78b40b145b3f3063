import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { endSessionRows, type SessionData } from '../platform/sessions';
import { inUnitOfWork, type UnitOfWork, type UnitOfWorkDeps } from '../platform/unitOfWork';

// An admin's change to an account (role, deletion) reaches that user's open pages: every session
// signed in as them is told it ended, so its sockets disconnect and leave private rooms (the
// `admins` room is re-decided from the database when they reconnect).

export interface UserSession {
  key: string;
  data: SessionData;
}

const parsed = (data: string): SessionData | undefined => {
  try {
    return JSON.parse(data) as SessionData;
  } catch {
    return undefined;
  }
};

/** The live sessions signed in as this user. The LIKE narrows; the parsed data decides. */
export async function sessionsOf(db: Knex, userId: number, now = Date.now()): Promise<UserSession[]> {
  const rows = (await db('sessions')
    .where('data', 'like', `%"userId":${userId}%`)
    .where('expiresAt', '>', now)
    .whereNull('endedAt')
    .select('id', 'data')) as Array<{ id: string; data: string }>;
  return rows.flatMap((r) => {
    const data = parsed(r.data);
    return data?.userId === userId ? [{ key: r.id, data }] : [];
  });
}

const sessionKeysOf = async (db: Knex, userId: number) => (await sessionsOf(db, userId)).map((s) => s.key);

/** The id a customer sees for one of their sessions: a hash, since the key is the cookie's value. */
export const sessionPublicId = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 32);

/**
 * Ends these sessions in the unit: `signOut` marks them ended (for good: a late save of a request
 * in flight cannot bring them back), and their sockets are told after COMMIT so that they
 * re-authenticate.
 */
export async function endSessions(uow: UnitOfWork, keys: string[], { signOut }: { signOut: boolean }) {
  if (signOut) await endSessionRows(uow.trx, keys);
  for (const sessionKey of keys) uow.emit('session.ended', { sessionKey });
}

/**
 * Called after the account change has committed. `signOut` also ends the sessions (a deleted
 * account, a new password), all but the `except` key (the session that changed the password);
 * otherwise they stay signed in and re-read their role from the database on the next request and
 * reconnect.
 */
export async function endUserSessions(
  deps: UnitOfWorkDeps,
  userId: number,
  options: { signOut: boolean; except?: string | undefined },
): Promise<number> {
  return inUnitOfWork(deps, async (uow) => {
    const keys = (await sessionKeysOf(uow.trx, userId)).filter((k) => k !== options.except);
    await endSessions(uow, keys, options);
    return keys.length;
  });
}
