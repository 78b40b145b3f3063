import type { AdminCompetitionDetail } from './admin';
import { AdminIdParamSchema } from './admin';
import { route } from './apiRoute';
import type { PublicCompetition } from './competitions';
import { IdParamSchema } from './competitions';
import type { AdminWinner, DrawEntries, DrawScheduled, PublicDraw, Winner } from './draw';
import { WinnerUpdateSchema } from './draw';
import { type AdminPrizeWinner, PrizeDeliveryUpdateSchema, PrizePositionParamSchema } from './prizes';
import { WinnerStoryUpdateSchema } from './winnerStories';

const LOCAL_BEACON = "drand's HTTP API for DRAW_BEACON=local without a URL: registered only then.";

/** A competition's public page and admin detail (both carry the draw), draws, winners, the test beacon. */
export const DRAW_ROUTES = {
  competition: route<PublicCompetition>()({
    method: 'GET',
    path: '/api/competitions/:id',
    params: IdParamSchema,
  }),
  drawEntries: route<DrawEntries>()({
    method: 'GET',
    path: '/api/competitions/:id/draw-entries',
    params: IdParamSchema,
  }),
  winners: route<Winner[]>()({ method: 'GET', path: '/api/winners' }),
  adminCompetition: route<AdminCompetitionDetail>()({
    method: 'GET',
    path: '/api/admin/competitions/:id',
    params: AdminIdParamSchema,
  }),
  draw: route<PublicDraw | DrawScheduled>()({
    method: 'POST',
    path: '/api/admin/competitions/:id/draw',
    params: AdminIdParamSchema,
  }),
  beaconInfo: route()({ method: 'GET', path: '/api/draw-beacon/info', kind: 'text', note: LOCAL_BEACON }),
  beaconRound: route()({
    method: 'GET',
    path: '/api/draw-beacon/public/:round',
    kind: 'text',
    note: LOCAL_BEACON,
  }),
  adminWinners: route<AdminWinner[]>()({ method: 'GET', path: '/api/admin/winners' }),
  updateWinner: route<AdminWinner>()({
    method: 'PATCH',
    path: '/api/admin/winners/:id',
    params: AdminIdParamSchema,
    body: WinnerUpdateSchema,
  }),
  updatePrize: route<AdminWinner>()({
    method: 'PATCH',
    path: '/api/admin/winners/:id/prizes/:position',
    params: PrizePositionParamSchema,
    body: PrizeDeliveryUpdateSchema,
  }),
  /** A prize's winner story: photo, quote and the publicity tick (docs/product.md#public-names-and-winner-stories). */
  updateWinnerStory: route<AdminPrizeWinner>()({
    method: 'PUT',
    path: '/api/admin/winners/:id/prizes/:position/story',
    params: PrizePositionParamSchema,
    body: WinnerStoryUpdateSchema,
  }),
};

/** Entries registered only under a configuration (the route-table test allows them to be absent). */
export const CONDITIONAL_ROUTES: readonly { method: string; path: string }[] = [
  DRAW_ROUTES.beaconInfo,
  DRAW_ROUTES.beaconRound,
];
