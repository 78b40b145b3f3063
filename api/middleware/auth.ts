import type { Knex } from 'knex';
import type { Middleware } from 'koa';
import type { User } from '../../db/models';
import { unauthenticated } from '../errors';
import { findActiveUser } from '../services/auth';

declare module 'koa' {
  interface DefaultState {
    user?: User;
  }
}

/** Loads the signed-in user into ctx.state.user, or answers 401 with `message`. */
export function requireUser(db: Knex, message?: string): Middleware {
  return async (ctx, next) => {
    const userId = ctx.session?.userId;
    const user = userId ? await findActiveUser(db, userId) : undefined;
    if (!user) throw unauthenticated(message);
    ctx.state.user = user;
    await next();
  };
}
