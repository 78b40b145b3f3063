import { ACCOUNT_ROUTES } from './apiAccounts';
import { ADMIN_ACCOUNT_ROUTES } from './apiAdminAccounts';
import { ADMIN_BACK_OFFICE_ROUTES } from './apiAdminBackOffice';
import { ADMIN_CATALOGUE_ROUTES, SITE_SETTING_ROUTES } from './apiAdminCatalogue';
import { ADMIN_ORDER_ROUTES } from './apiAdminOrders';
import { AUTH_ROUTES } from './apiAuth';
import { CATALOGUE_ROUTES } from './apiCatalogue';
import { CLAIM_ROUTES } from './apiClaims';
import { DRAW_ROUTES } from './apiDraws';
import { ADMIN_MARKETING_ROUTES, MARKETING_ROUTES } from './apiMarketing';
import { ORDER_ROUTES } from './apiOrders';
import { PLATFORM_ROUTES } from './apiPlatform';
import { PUSH_ROUTES } from './apiPush';
import { ADMIN_QUEUE_ROUTES, QUEUE_ROUTES } from './apiQueue';
import type { ApiRoute } from './apiRoute';
import { TICKET_ROUTES } from './apiTickets';

export { CONDITIONAL_ROUTES } from './apiDraws';

/**
 * Every route the server registers, one table per domain, the back office's apart (a page imports
 * only the table it calls, so the first load carries no admin schema). The
 * server registers each entry with api/http/serve.ts; tests/api/platform/routeTable.test.ts checks
 * that the router holds exactly these, each once.
 */
export const ROUTE_TABLES = {
  auth: AUTH_ROUTES,
  accounts: ACCOUNT_ROUTES,
  adminAccounts: ADMIN_ACCOUNT_ROUTES,
  catalogue: CATALOGUE_ROUTES,
  adminCatalogue: ADMIN_CATALOGUE_ROUTES,
  tickets: TICKET_ROUTES,
  orders: ORDER_ROUTES,
  adminOrders: ADMIN_ORDER_ROUTES,
  adminBackOffice: ADMIN_BACK_OFFICE_ROUTES,
  draws: DRAW_ROUTES,
  claims: CLAIM_ROUTES,
  platform: PLATFORM_ROUTES,
  marketing: MARKETING_ROUTES,
  adminMarketing: ADMIN_MARKETING_ROUTES,
  queue: QUEUE_ROUTES,
  adminQueue: ADMIN_QUEUE_ROUTES,
  push: PUSH_ROUTES,
};

export const ALL_ROUTES: readonly ApiRoute[] = [
  ...Object.values(ROUTE_TABLES).flatMap((table) => Object.values(table) as ApiRoute[]),
  ...SITE_SETTING_ROUTES,
];
