import { route } from './apiRoute';
import type { CampaignView, WatchChangeView, WatchlistView } from './marketing';
import { UnsubscribeQuerySchema, WatchCompetitionParamSchema } from './marketing';

/** The customer's watchlist and the one-click unsubscribe of marketing e-mails. */
export const MARKETING_ROUTES = {
  watchlist: route<WatchlistView>()({ method: 'GET', path: '/api/account/watchlist' }),
  watch: route<WatchChangeView>()({
    method: 'PUT',
    path: '/api/account/watchlist/:competitionId',
    params: WatchCompetitionParamSchema,
  }),
  unwatch: route<WatchChangeView>()({
    method: 'DELETE',
    path: '/api/account/watchlist/:competitionId',
    params: WatchCompetitionParamSchema,
  }),
  unsubscribePage: route()({
    method: 'GET',
    path: '/api/unsubscribe',
    query: UnsubscribeQuerySchema,
    kind: 'text',
    note: 'HTML: the unsubscribe link of a marketing e-mail, asking to confirm (or confirming it is done), with the way back in.',
  }),
  unsubscribe: route()({
    method: 'POST',
    path: '/api/unsubscribe',
    query: UnsubscribeQuerySchema,
    kind: 'text',
    note: 'RFC 8058 one-click unsubscribe: no cookie, no CSRF token (exempt); JSON { unsubscribed, message }, or the HTML page for a browser form.',
  }),
};

/** The back office's Campaigns page. */
export const ADMIN_MARKETING_ROUTES = {
  campaigns: route<CampaignView[]>()({ method: 'GET', path: '/api/admin/campaigns' }),
};
