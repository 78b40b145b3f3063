import type { Router } from '@koa/router';
import type { Context } from 'koa';
import { ADMIN_MARKETING_ROUTES as A, MARKETING_ROUTES as R } from '../../../contract/apiMarketing';
import { UNSUBSCRIBED_MESSAGE } from '../../../contract/marketing';
import { requireAdmin, requireUser } from '../../http/auth';
import { serve } from '../../http/serve';
import type { AppDeps } from '../../platform/context';
import { listCampaigns } from '../marketing/campaignReport';
import { claimOf, stillSubscribed, unsubscribe, unsubscribePage } from '../marketing/unsubscribe';
import { verifyUnsubscribeToken } from '../marketing/unsubscribeTokens';
import { listWatched, unwatch, watch } from '../marketing/watchlist';

/** The path api/app.ts exempts, exactly, from the CSRF check: mail clients POST to it (RFC 8058). */
export const UNSUBSCRIBE_PATH = R.unsubscribe.path;

const sendPage = (ctx: Context, status: number, html: string) => {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.body = html;
};

/** The watchlist, the one-click unsubscribe (no session needed) and the admin's Campaigns. */
export function registerMarketingRoutes(router: Router, { db, config }: AppDeps): void {
  const signedIn = requireUser(db);
  const secret = config.sessionSecret;

  serve(router, R.watchlist, signedIn, async (_, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    return { competitions: await listWatched(db, ctx.state.user!.id) };
  });
  serve(router, R.watch, signedIn, ({ params }, ctx) => watch(db, ctx.state.user!.id, params.competitionId));
  serve(router, R.unwatch, signedIn, ({ params }, ctx) =>
    unwatch(db, ctx.state.user!.id, params.competitionId),
  );

  // GET changes nothing: link scanners fetch it. It asks, or says it is already done.
  serve(router, R.unsubscribePage, async ({ query: { token } }, ctx) => {
    const claim = verifyUnsubscribeToken(secret, token);
    if (!claim) return sendPage(ctx, 400, unsubscribePage(config.siteName, 'invalid', token));
    const state = (await stillSubscribed(db, claim)) ? 'ask' : 'done';
    sendPage(ctx, 200, unsubscribePage(config.siteName, state, token));
  });

  // RFC 8058: a mail client POSTs 'List-Unsubscribe=One-Click' with no cookie and no CSRF token.
  serve(router, R.unsubscribe, async ({ query: { token } }, ctx) => {
    const browser = ctx.accepts('json', 'html') === 'html' && Boolean(ctx.get('accept'));
    const claim = browser ? verifyUnsubscribeToken(secret, token) : claimOf(secret, token);
    if (!claim) return sendPage(ctx, 400, unsubscribePage(config.siteName, 'invalid', token));
    await unsubscribe(db, claim);
    ctx.set('Cache-Control', 'no-store');
    if (browser) return sendPage(ctx, 200, unsubscribePage(config.siteName, 'done', token));
    ctx.body = { unsubscribed: true, message: UNSUBSCRIBED_MESSAGE };
  });

  serve(router, A.campaigns, requireAdmin({ db, config }), async (_, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    return listCampaigns(db);
  });
}
