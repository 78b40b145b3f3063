import type { Router } from '@koa/router';
import { ACCOUNT_ROUTES as R } from '../../../contract/apiAccounts';
import { ADMIN_ACCOUNT_ROUTES as A } from '../../../contract/apiAdminAccounts';
import type { ComplaintCreatedView, ComplaintQueueView } from '../../../contract/complaints';
import { actorOf } from '../../http/adminActor';
import { requireAdmin, requireUser } from '../../http/auth';
import { serve } from '../../http/serve';
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

  serve(router, R.dateOfBirth, signedIn, async ({ body: { dateOfBirth } }, ctx) => {
    const user = await setOwnDateOfBirth(db, ctx.state.user!, dateOfBirth);
    return presentUser(user, await twoFactorStatus(deps, user));
  });

  serve(router, A.verifyAge, admin, async ({ params: { userId } }, ctx) => {
    const user = await markAgeVerified(db, actorOf(ctx), userId);
    return presentUser(user, await twoFactorStatus(deps, user));
  });

  serve(router, R.createComplaint, signedIn, async ({ body: input }, ctx) => {
    await countComplaint(ctx.state.user!.id, ctx.ip);
    const complaint = await createComplaint(deps, ctx.state.user!, input);
    ctx.status = 201;
    return { reference: complaint.reference } satisfies ComplaintCreatedView;
  });

  serve(router, R.complaints, signedIn, async (_, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    return (await listOwnComplaints(db, ctx.state.user!.id)).map(presentComplaint);
  });

  serve(router, A.complaintQueue, admin, async (input, _ctx) => {
    const query = input.query;
    const now = Date.now();
    const { complaints, ...page } = await listComplaintQueue(db, query);
    return {
      complaints: complaints.map((c) => presentAdminComplaint(c, now)),
      ...page,
    } satisfies ComplaintQueueView;
  });

  serve(router, A.replyToComplaint, admin, async ({ params: { id }, body: { message } }, ctx) => {
    const { complaint, emailSent } = await replyToComplaint(deps, actorOf(ctx), id, message);
    return { ...presentAdminComplaint(complaint, Date.now()), emailSent };
  });

  serve(router, A.closeComplaint, admin, async ({ params: { id } }, ctx) => {
    return presentAdminComplaint(await closeComplaint(db, actorOf(ctx), id), Date.now());
  });
}
