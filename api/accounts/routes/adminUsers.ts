import type { Router } from '@koa/router';
import { ADMIN_ACCOUNT_ROUTES as A } from '../../../contract/apiAdminAccounts';
import { actorOf } from '../../http/adminActor';
import { requireAdmin } from '../../http/auth';
import { serve } from '../../http/serve';
import type { AppDeps } from '../../platform/context';
import { changeRole, deleteUser, listUsers } from '../adminUsers';
import { presentAdminUser, presentUser } from '../presenter';
import { twoFactorStatus, usersWithTwoFactor } from '../twoFactor';

/** /admin/users: list, Change Role, Delete User. */
export function registerAdminUserRoutes(router: Router, deps: AppDeps): void {
  const { db, events, config } = deps;
  const admin = requireAdmin({ db, config });

  serve(router, A.adminUsers, admin, async (_, _ctx) => {
    const users = await listUsers(db);
    const withTwoFactor = await usersWithTwoFactor(
      db,
      users.map((u) => u.id),
    );
    const now = Date.now();
    // Only admins can owe a setup: ask the rule for them alone.
    return await Promise.all(
      users.map(async (u) =>
        u.role === 'admin'
          ? presentAdminUser(u, await twoFactorStatus(deps, u), now)
          : presentAdminUser(u, { enabled: withTwoFactor.has(u.id), setupRequired: false }, now),
      ),
    );
  });

  serve(router, A.changeRole, admin, async ({ params: { userId }, body: { role } }, ctx) => {
    const user = await changeRole({ db, events }, actorOf(ctx), userId, role);
    return presentUser(user, await twoFactorStatus(deps, user));
  });

  serve(router, A.deleteUser, admin, async (input, ctx) => {
    await deleteUser({ db, events }, actorOf(ctx), input.params.userId);
    return { success: true, message: 'User deleted' };
  });
}
