import type { Router } from '@koa/router';
import { RoleChangeSchema, UserIdParamSchema } from '../../../contract/admin';
import { actorOf } from '../../http/adminActor';
import { requireAdmin } from '../../http/auth';
import { parse } from '../../http/validate';
import type { AppDeps } from '../../platform/context';
import { changeRole, deleteUser, listUsers } from '../adminUsers';
import { presentUser } from '../presenter';

/** /admin/users: list, Change Role, Delete User. */
export function registerAdminUserRoutes(router: Router, { db, events }: AppDeps): void {
  const admin = requireAdmin(db);
  const idOf = (params: unknown) => parse(UserIdParamSchema, params).userId;

  router.get('/api/admin/users', admin, async (ctx) => {
    ctx.body = (await listUsers(db)).map(presentUser);
  });

  router.patch('/api/admin/users/:userId/role', admin, async (ctx) => {
    const userId = idOf(ctx.params);
    const { role } = parse(RoleChangeSchema, ctx.request.body ?? {});
    ctx.body = presentUser(await changeRole({ db, events }, actorOf(ctx), userId, role));
  });

  router.delete('/api/admin/users/:userId', admin, async (ctx) => {
    await deleteUser({ db, events }, actorOf(ctx), idOf(ctx.params));
    ctx.body = { success: true, message: 'User deleted' };
  });
}
