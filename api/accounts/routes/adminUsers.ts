import type { Router } from '@koa/router';
import { RoleChangeSchema, UserIdParamSchema } from '../../../contract/admin';
import { actorOf } from '../../http/adminActor';
import { requireAdmin } from '../../http/auth';
import { parse } from '../../http/validate';
import type { AppDeps } from '../../platform/context';
import { changeRole, deleteUser, listUsers } from '../adminUsers';
import { presentAdminUser, presentUser } from '../presenter';
import { twoFactorStatus, usersWithTwoFactor } from '../twoFactor';

/** /admin/users: list, Change Role, Delete User. */
export function registerAdminUserRoutes(router: Router, deps: AppDeps): void {
  const { db, events, config } = deps;
  const admin = requireAdmin({ db, config });
  const idOf = (params: unknown) => parse(UserIdParamSchema, params).userId;

  router.get('/api/admin/users', admin, async (ctx) => {
    const users = await listUsers(db);
    const withTwoFactor = await usersWithTwoFactor(
      db,
      users.map((u) => u.id),
    );
    const now = Date.now();
    // Only admins can owe a setup: ask the rule for them alone.
    ctx.body = await Promise.all(
      users.map(async (u) =>
        u.role === 'admin'
          ? presentAdminUser(u, await twoFactorStatus(deps, u), now)
          : presentAdminUser(u, { enabled: withTwoFactor.has(u.id), setupRequired: false }, now),
      ),
    );
  });

  router.patch('/api/admin/users/:userId/role', admin, async (ctx) => {
    const userId = idOf(ctx.params);
    const { role } = parse(RoleChangeSchema, ctx.request.body ?? {});
    const user = await changeRole({ db, events }, actorOf(ctx), userId, role);
    ctx.body = presentUser(user, await twoFactorStatus(deps, user));
  });

  router.delete('/api/admin/users/:userId', admin, async (ctx) => {
    await deleteUser({ db, events }, actorOf(ctx), idOf(ctx.params));
    ctx.body = { success: true, message: 'User deleted' };
  });
}
