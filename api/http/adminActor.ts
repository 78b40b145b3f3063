import type { Context } from 'koa';
import type { Actor } from '../platform/auditLog';

/** The signed-in admin (set by requireAdmin) as the audit log records them. */
export function actorOf(ctx: Context): Actor {
  const user = ctx.state.user;
  if (!user) throw new Error('actorOf() needs requireAdmin() before it');
  return { id: user.id, username: user.username };
}
