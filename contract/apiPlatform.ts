import { route } from './apiRoute';
import type { Health, LimitsSummary, Ready, SiteConfig } from './site';

/** Health, readiness, the CSRF token, the public configuration and limits, and the files for crawlers and scrapers. */
export const PLATFORM_ROUTES = {
  health: route<Health>()({ method: 'GET', path: '/api/health' }),
  ready: route<Ready>()({ method: 'GET', path: '/api/ready' }),
  csrfToken: route<{ csrfToken: string }>()({ method: 'GET', path: '/api/csrf-token' }),
  siteConfig: route<SiteConfig>()({ method: 'GET', path: '/api/site-config' }),
  limits: route<LimitsSummary>()({ method: 'GET', path: '/api/limits' }),
  metrics: route()({
    method: 'GET',
    path: '/metrics',
    kind: 'text',
    note: 'Prometheus text for a scraper with METRICS_TOKEN (docs/operations.md#metrics).',
  }),
  robots: route()({ method: 'GET', path: '/robots.txt', kind: 'text', note: 'For crawlers.' }),
  sitemap: route()({ method: 'GET', path: '/sitemap.xml', kind: 'text', note: 'XML for crawlers.' }),
  applePayDomainAssociation: route()({
    method: 'GET',
    path: '/.well-known/apple-developer-merchantid-domain-association',
    kind: 'text',
    note: "Apple Pay's domain verification file, from APPLE_PAY_DOMAIN_ASSOCIATION (404 when unset).",
  }),
};
