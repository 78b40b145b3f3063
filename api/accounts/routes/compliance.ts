import type { Router } from '@koa/router';
import { AdminIdParamSchema, UserIdParamSchema } from '../../../contract/admin';
import { DateOfBirthSchema } from '../../../contract/age';
import {
  type ComplaintCreatedView,
  ComplaintCreateSchema,
  ComplaintQueueQuerySchema,
  type ComplaintQueueView,
  ComplaintReplySchema,
} from '../../../contract/complaints';
import { actorOf } from '../../http/adminActor';
import { requireAdmin, requireUser } from '../../http/auth';
import { parse } from '../../http/validate';
import type { AppDeps } from '../../platform/context';
import { markAgeVerified, setOwnDateOfBirth } from '../compliance/ageChecks';
import { presentAdminComplaint, presentComplaint } from '../compliance/complaintPresenter';
import {
  closeComplaint,
  createComplaint,
  createComplaintLimit,
  listComplaintQueue,
  listOwnComplaints,
  replyToComplaint,
} from '../compliance/complaints';
import { presentUser } from '../presenter';
import { twoFactorStatus } from '../twoFactor';

/**
 * Age checks and complaints (docs/product.md#age-checks, #complaints): the customer's date of
 * birth and complaints, the admin's age verification and complaint queue.
 */
export function registerComplianceRoutes(router: Router, deps: AppDeps): void {
  const { db } = deps;
  const signedIn = requireUser(db);
  const admin = requireAdmin(deps);
  const countComplaint = createComplaintLimit(deps.rateLimits);

  router.put('/api/account/date-of-birth', signedIn, async (ctx) => {
    const { dateOfBirth } = parse(DateOfBirthSchema, ctx.request.body);
    const user = await setOwnDateOfBirth(db, ctx.state.user!, dateOfBirth);
    ctx.body = presentUser(user, await twoFactorStatus(deps, user));
  });

  router.post('/api/admin/users/:userId/age-verification', admin, async (ctx) => {
    const { userId } = parse(UserIdParamSchema, ctx.params);
    const user = await markAgeVerified(db, actorOf(ctx), userId);
    ctx.body = presentUser(user, await twoFactorStatus(deps, user));
  });

  router.post('/api/complaints', signedIn, async (ctx) => {
    const input = parse(ComplaintCreateSchema, ctx.request.body);
    await countComplaint(ctx.state.user!.id, ctx.ip);
    const complaint = await createComplaint(deps, ctx.state.user!, input);
    ctx.status = 201;
    ctx.body = { reference: complaint.reference } satisfies ComplaintCreatedView;
  });

  router.get('/api/complaints', signedIn, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = (await listOwnComplaints(db, ctx.state.user!.id)).map(presentComplaint);
  });

  router.get('/api/admin/complaints', admin, async (ctx) => {
    const query = parse(ComplaintQueueQuerySchema, ctx.query);
    const now = Date.now();
    const { complaints, ...page } = await listComplaintQueue(db, query);
    ctx.body = {
      complaints: complaints.map((c) => presentAdminComplaint(c, now)),
      ...page,
    } satisfies ComplaintQueueView;
  });

  router.post('/api/admin/complaints/:id/reply', admin, async (ctx) => {
    const { id } = parse(AdminIdParamSchema, ctx.params);
    const { message } = parse(ComplaintReplySchema, ctx.request.body);
    const { complaint, emailSent } = await replyToComplaint(deps, actorOf(ctx), id, message);
    ctx.body = { ...presentAdminComplaint(complaint, Date.now()), emailSent };
  });

  router.post('/api/admin/complaints/:id/close', admin, async (ctx) => {
    const { id } = parse(AdminIdParamSchema, ctx.params);
    ctx.body = presentAdminComplaint(await closeComplaint(db, actorOf(ctx), id), Date.now());
  });
}
