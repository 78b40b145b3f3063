import type { Router } from '@koa/router';
import { CLAIM_ROUTES as R } from '../../../contract/apiClaims';
import { requireUser } from '../../http/auth';
import { serve } from '../../http/serve';
import type { AppDeps } from '../../platform/context';
import { claimByLink, submitClaimByLink } from './claimLinks';
import { listMyClaims, myClaim, presentClaim, submitClaim } from './claims';

/**
 * A winner's claims (docs/draws.md#7-claiming-a-prize): their own only; another's answers 404. A
 * postal winner's claim is opened with the e-mailed link's token instead, without signing in.
 */
export function registerClaimRoutes(router: Router, { db }: AppDeps): void {
  const signedIn = requireUser(db, 'Please log in to claim your prize.');

  serve(router, R.myClaims, signedIn, async (_, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const now = Date.now();
    return (await listMyClaims(db, ctx.state.user!.id)).map((c) => presentClaim(c, now));
  });

  serve(router, R.claim, signedIn, async ({ params: { id } }, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    return presentClaim(await myClaim(db, ctx.state.user!.id, id), Date.now());
  });

  serve(router, R.submitClaim, signedIn, async ({ params: { id }, body }, ctx) => {
    const now = Date.now();
    return presentClaim(await submitClaim(db, ctx.state.user!.id, id, body, now), now);
  });

  serve(router, R.claimByLink, async ({ params: { id }, query: { token } }, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const now = Date.now();
    return presentClaim(await claimByLink(db, id, token, now), now);
  });

  serve(router, R.submitClaimByLink, async ({ params: { id }, body: { token, ...answer } }, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const now = Date.now();
    return presentClaim(await submitClaimByLink(db, id, token, answer, now), now);
  });
}
