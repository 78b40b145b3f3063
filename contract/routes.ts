/**
 * The client's page routes (wouter patterns), shared so the server knows which paths are pages:
 * any other path answers 404 with the site's not-found page. web/App.tsx maps each one to its
 * screen (a missing or extra entry fails the type check).
 */
export const CUSTOMER_PAGE_PATHS = [
  '/',
  '/competitions',
  '/competition/:id',
  '/competitions/:id',
  '/competitions/:id/draw',
  '/how-to-play',
  '/terms',
  '/privacy',
  '/cookies',
  '/faq',
  '/about',
  '/winners',
  '/cart',
  '/checkout',
  '/confirmation/:orderId',
  '/payment-success/:orderId',
  '/payment-success',
  '/my-competitions',
  '/my-tickets',
  '/auth',
  '/profile',
  '/claims/:id',
  '/orders/:orderId/receipt',
  '/reset-password',
  '/verify-email',
  '/two-factor-not-me',
  '/admin-login',
] as const;

/** The back office's screens (one lazily loaded chunk, web/pages/admin/adminRoutes.tsx). */
export const ADMIN_PAGE_PATHS = [
  '/admin',
  '/admin/competitions',
  '/admin/competitions/:id',
  '/admin/orders',
  '/admin/orders/:id',
  '/admin/users',
  '/admin/users/:id',
  '/admin/ticket-lookup',
  '/admin/site-settings',
  '/direct-site-settings',
  '/direct-upload-test',
  '/admin/promos',
  '/admin/emails',
  '/admin/campaigns',
  '/admin/complaints',
  '/admin/harm-report',
] as const;

/**
 * Pages for a streamer's browser source (OBS): 1920×1080, no navigation, a transparent page, or
 * one chroma-key colour with `?chroma=1` (web/pages/overlay/).
 */
export const OVERLAY_PAGE_PATHS = ['/overlay/draw/:id', '/overlay/grid/:id'] as const;

export type CustomerPagePath = (typeof CUSTOMER_PAGE_PATHS)[number];
export type AdminPagePath = (typeof ADMIN_PAGE_PATHS)[number];
export type OverlayPagePath = (typeof OVERLAY_PAGE_PATHS)[number];
export type PagePath = CustomerPagePath | AdminPagePath | OverlayPagePath;

/** Pages that show one competition: the server answers 404 when it cannot be viewed. */
export const COMPETITION_PAGE_PATHS: readonly PagePath[] = [
  '/competition/:id',
  '/competitions/:id',
  '/competitions/:id/draw',
  '/overlay/draw/:id',
  '/overlay/grid/:id',
];

export interface PageMatch {
  path: PagePath;
  params: Record<string, string>;
}

/**
 * The page a path opens, matched as wouter does (case-insensitive, `:name` is one non-empty
 * segment, one trailing slash allowed), or null for a path that is no page.
 */
export function matchPagePath(pathname: string): PageMatch | null {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname;
  // '//' is not the home page: only one slash may be dropped, never the last one.
  if (trimmed === '/' && pathname !== '/') return null;
  const segments = trimmed.split('/');
  for (const path of [...CUSTOMER_PAGE_PATHS, ...ADMIN_PAGE_PATHS, ...OVERLAY_PAGE_PATHS]) {
    const pattern = path.split('/');
    if (pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = pattern.every((part, i) => {
      const segment = segments[i]!;
      if (!part.startsWith(':')) return part === segment.toLowerCase();
      if (segment === '') return false;
      params[part.slice(1)] = safeDecode(segment);
      return true;
    });
    if (matches) return { path, params };
  }
  return null;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
