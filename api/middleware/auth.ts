import type { Knex } from 'knex';
import type { Middleware } from 'koa';
import type { User } from '../../db/models';
import { forbidden, unauthenticated } from '../errors';
import { findActiveUser } from '../services/auth';

declare module 'koa' {
  interface DefaultState {
    user?: User;
  }
}

/** Loads the signed-in user into ctx.state.user, or answers 401. */
export function requireUser(db: Knex): Middleware {
  return async (ctx, next) => {
    const userId = ctx.session?.userId;
    const user = userId ? await findActiveUser(db, userId) : undefined;
    if (!user) throw unauthenticated();
    ctx.state.user = user;
    await next();
  };
}

/** requireUser, then 403 unless the user is an admin. */
export function requireAdmin(db: Knex): Middleware {
  const loadUser = requireUser(db);
  return (ctx, next) =>
    loadUser(ctx, async () => {
      if (ctx.state.user?.role !== 'admin') throw forbidden('Admin access is required.');
      await next();
    });
}
