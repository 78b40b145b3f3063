import type { Knex } from 'knex';
import type { Context, Middleware } from 'koa';
import { DATE_OF_BIRTH_REQUIRED_MESSAGE } from '../../contract/age';
import { ERROR_CODES } from '../../contract/errors';
import { User } from '../../db/models';
import { ADMIN_TWO_FACTOR_MESSAGE, adminNeedsTwoFactor } from '../platform/adminTwoFactor';
import type { AppDeps } from '../platform/context';
import { forbidden, HttpError, unauthenticated } from '../platform/errors';

declare module 'koa' {
  interface DefaultState {
    user?: User;
  }
}

// Read here from the model, not through accounts/: every domain's routes use these guards, and
// http/ sits below all of them.
async function findActiveUser(db: Knex, id: number): Promise<User | undefined> {
  return User.query(db).findById(id).whereNull('deletedAt');
}

/** The signed-in user of this request, if any (a deleted account counts as signed out). */
export async function currentUser(db: Knex, ctx: Context): Promise<User | undefined> {
  const userId = ctx.session?.userId;
  return userId ? findActiveUser(db, userId) : undefined;
}

/** Whether the request is an admin's (a draft's page and data show to admins only). */
export async function isAdminViewer(db: Knex, ctx: Context): Promise<boolean> {
  return (await currentUser(db, ctx))?.role === 'admin';
}

/** Loads the signed-in user into ctx.state.user, or answers 401 with `message`. */
export function requireUser(db: Knex, message?: string): Middleware {
  return async (ctx, next) => {
    const user = await currentUser(db, ctx);
    if (!user) throw unauthenticated(message);
    ctx.state.user = user;
    await next();
  };
}

/**
 * Admins only, checked on the server from the database on every request: signed out 401, any
 * other role 403. A demoted admin loses access on their very next request. Under ADMIN_REQUIRE_2FA
 * an admin without two-factor sign-in gets 403 `two_factor_setup_required` until they turn it on.
 */
export function requireAdmin({ db, config }: Pick<AppDeps, 'db' | 'config'>): Middleware {
  return async (ctx, next) => {
    const user = await currentUser(db, ctx);
    if (!user) throw unauthenticated();
    if (user.role !== 'admin') throw forbidden("You don't have admin privileges");
    if (await adminNeedsTwoFactor(db, config, user))
      throw forbidden(ADMIN_TWO_FACTOR_MESSAGE, ERROR_CODES.twoFactorSetupRequired);
    ctx.state.user = user;
    await next();
  };
}

/**
 * Accounts made before the date of birth was asked must give it before their next hold or payment
 * (docs/product.md#age-checks): 403 `date_of_birth_required`, which the client turns into the
 * date-of-birth prompt. A guest passes: they are asked when they register.
 */
export function requireDateOfBirth(db: Knex): Middleware {
  return async (ctx, next) => {
    const user = ctx.state.user ?? (await currentUser(db, ctx));
    if (user && !user.dateOfBirth)
      throw new HttpError(403, ERROR_CODES.dateOfBirthRequired, DATE_OF_BIRTH_REQUIRED_MESSAGE);
    await next();
  };
}
