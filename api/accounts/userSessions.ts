import type { Knex } from 'knex';
import type { EventBus } from '../platform/events';
import type { SessionData } from '../platform/sessions';

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
 * Called after COMMIT. `signOut` also deletes the sessions (a deleted account); otherwise they
 * stay signed in and re-read their role from the database on the next request and reconnect.
 */
export async function endUserSessions(
  db: Knex,
  events: EventBus,
  userId: number,
  { signOut }: { signOut: boolean },
): Promise<number> {
  const keys = await sessionKeysOf(db, userId);
  if (signOut && keys.length) await db('sessions').whereIn('id', keys).delete();
  for (const sessionKey of keys) events.publish('session.ended', { sessionKey });
  return keys.length;
}
