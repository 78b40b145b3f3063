import type { Router } from '@koa/router';
import type { Knex } from 'knex';
import type { Context } from 'koa';
import * as v from 'valibot';
import { PLATFORM_ROUTES as R } from '../../../contract/apiPlatform';
import { IdParamSchema } from '../../../contract/competitions';
import { COMPETITION_PAGE_PATHS, matchPagePath } from '../../../contract/routes';
import { isAdminViewer } from '../../http/auth';
import { serve } from '../../http/serve';
import type { AppDeps } from '../../platform/context';
import { notFound } from '../../platform/errors';
import { findViewableCompetition, listPublicCompetitions } from '../competitions';

/** Public pages a crawler should index, besides each open competition. */
const INDEXED_PAGES = [
  '/',
  '/competitions',
  '/winners',
  '/how-to-play',
  '/faq',
  '/about',
  '/terms',
  '/privacy',
  '/cookies',
];

/** Private or back-office pages: no use to a search engine. */
const NOT_INDEXED = [
  '/api/',
  '/admin',
  '/admin-login',
  '/direct-',
  '/cart',
  '/checkout',
  '/confirmation/',
  '/payment-success',
  '/orders/',
  '/profile',
  '/my-competitions',
  '/my-tickets',
  '/auth',
];

const xmlEscape = (s: string) =>
  s.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!,
  );

/**
 * The HTTP status of a client page: 404 for a path the client's route table does not know, and
 * for a competition page whose competition cannot be viewed (missing, archived, or no id at all).
 */
export function pageStatus(db: Knex): (pathname: string, ctx: Context) => Promise<200 | 404> {
  return async (pathname, ctx) => {
    const page = matchPagePath(pathname);
    if (!page) return 404;
    if (!COMPETITION_PAGE_PATHS.includes(page.path)) return 200;
    const id = v.safeParse(IdParamSchema, page.params);
    if (!id.success) return 404;
    try {
      await findViewableCompetition(db, id.output.id, { drafts: await isAdminViewer(db, ctx) });
      return 200;
    } catch (err) {
      if ((err as { status?: number }).status === 404) return 404;
      throw err;
    }
  };
}

/**
 * /robots.txt and /sitemap.xml (open competitions), with absolute URLs from PUBLIC_URL; and Apple
 * Pay's domain-association file, so Stripe's wallet button can work on this domain in production.
 */
export function registerSiteFileRoutes(router: Router, { db, config }: AppDeps): void {
  const origin = config.publicUrl.replace(/\/$/, '');

  serve(router, R.robots, (_, ctx) => {
    ctx.type = 'text/plain; charset=utf-8';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = [
      'User-agent: *',
      ...NOT_INDEXED.map((path) => `Disallow: ${path}`),
      '',
      `Sitemap: ${origin}/sitemap.xml`,
      '',
    ].join('\n');
  });

  serve(router, R.applePayDomainAssociation, (_, ctx) => {
    const file = config.payments.applePayDomainAssociation;
    if (!file) throw notFound('Apple Pay is not set up: set APPLE_PAY_DOMAIN_ASSOCIATION.');
    ctx.type = 'text/plain; charset=utf-8';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = file;
  });

  serve(router, R.sitemap, async (_, ctx) => {
    const competitions = await listPublicCompetitions(db);
    const urls = [
      ...INDEXED_PAGES.map((path) => `  <url><loc>${xmlEscape(origin + path)}</loc></url>`),
      ...competitions.map(
        (c) =>
          `  <url><loc>${xmlEscape(`${origin}/competitions/${c.id}`)}</loc><lastmod>${new Date(c.updatedAt).toISOString()}</lastmod></url>`,
      ),
    ];
    ctx.type = 'application/xml; charset=utf-8';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      ...urls,
      '</urlset>',
      '',
    ].join('\n');
  });
}
