import type { Router } from '@koa/router';
import type { Context } from 'koa';
import { type AdminCompetitionDetail, AdminIdParamSchema } from '../../contract/admin';
import { IdParamSchema } from '../../contract/competitions';
import { iso } from '../../contract/dates';
import { type DrawScheduled, WinnerUpdateSchema } from '../../contract/draw';
import { PrizeDeliveryUpdateSchema, PrizePositionParamSchema } from '../../contract/prizes';
import { findAnyCompetition } from '../catalogue/adminCompetitions';
import { presentAdminCompetition } from '../catalogue/adminPresenter';
import { listInstantWins } from '../catalogue/instantWins/list';
import { presentAdminInstantWin } from '../catalogue/instantWins/presenter';
import { actorOf } from '../http/adminActor';
import { requireAdmin } from '../http/auth';
import { parse } from '../http/validate';
import { auditTrail } from '../platform/auditLog';
import type { AppDeps } from '../platform/context';
import { notFound } from '../platform/errors';
import { answerLocalBeacon } from './beacon/localBeacon';
import type { DrawDeps } from './drawable';
import { drawEntries, loadDrawRecord } from './drawRecords';
import { adminDrawStatus } from './drawStatus';
import { drawCompetition } from './draws';
import { presentAdminWinner, presentPublicDraw, presentWinner } from './presenter';
import { publicCompetition } from './publicCompetition';
import { listAdminWinners, listWinners, setPrizeDelivered, setWinnerTown } from './winners';

/**
 * Draws and winners (docs/draws.md): public results and entries, the admin's Draw now and winners.
 * Also the two competition views that include the draw (public page, admin detail): catalogue
 * may not call draws, so they are served from here.
 */
export function registerDrawRoutes(
  router: Router,
  { db, events, logger, config, mailer, drawBeacon, faults }: AppDeps,
): void {
  const deps: DrawDeps = { db, events, logger, mailer, beacon: drawBeacon, faults };
  const admin = requireAdmin({ db, config });

  router.get('/api/competitions/:id', async (ctx) => {
    ctx.body = await publicCompetition(db, parse(IdParamSchema, ctx.params).id);
  });

  router.get('/api/competitions/:id/draw-entries', async (ctx) => {
    ctx.body = await drawEntries(db, parse(IdParamSchema, ctx.params).id);
  });

  router.get('/api/winners', async (ctx) => {
    ctx.body = (await listWinners(db)).map(presentWinner);
  });

  router.get('/api/admin/competitions/:id', admin, async (ctx) => {
    const c = await findAnyCompetition(db, parse(AdminIdParamSchema, ctx.params).id);
    // Where the draw stands (or why there is none, e.g. no sales), and its result once drawn.
    const { drawStatus, record } = await adminDrawStatus(db, c, config.drawAutoAfterSeconds);
    const detail: AdminCompetitionDetail = {
      ...presentAdminCompetition(c),
      drawStatus,
      draw: record ? presentAdminWinner(record) : null,
      auditLog: await auditTrail(db, 'competition', c.id),
      instantWinCommitment: c.instantWinCommitment ?? null,
      instantWins: (await listInstantWins(db, c.id)).map(presentAdminInstantWin),
    };
    ctx.body = detail;
  });

  // Draws now when its beacon round is out within seconds; otherwise 202: the round is fixed and
  // published, and the draw follows it (the job draws it).
  router.post('/api/admin/competitions/:id/draw', admin, async (ctx) => {
    const id = parse(AdminIdParamSchema, ctx.params).id;
    const outcome = await drawCompetition(deps, id, { kind: 'admin', actor: actorOf(ctx) });
    if (outcome.kind === 'drawn') {
      ctx.body = presentPublicDraw(outcome.record);
      return;
    }
    const scheduled: DrawScheduled = {
      scheduled: true,
      message: outcome.message,
      round: outcome.round.round,
      dueAt: iso(outcome.round.dueAt),
    };
    ctx.status = 202;
    ctx.body = scheduled;
  });

  // DRAW_BEACON=local without a URL: the test beacon in this process, with drand's HTTP API.
  const local = drawBeacon.local;
  if (local) {
    const answer = (ctx: Context, subPath: string) => {
      const { status, body } = answerLocalBeacon(local, subPath);
      ctx.status = status;
      ctx.set('Cache-Control', 'no-store');
      ctx.body = body;
    };
    router.get('/api/draw-beacon/info', (ctx) => answer(ctx, '/info'));
    router.get('/api/draw-beacon/public/:round', (ctx) => answer(ctx, `/public/${ctx.params.round}`));
  }

  router.get('/api/admin/winners', admin, async (ctx) => {
    ctx.body = (await listAdminWinners(db)).map(presentAdminWinner);
  });

  router.patch('/api/admin/winners/:id', admin, async (ctx) => {
    const id = parse(AdminIdParamSchema, ctx.params).id;
    const { prizeDelivered, winnerTown } = parse(WinnerUpdateSchema, ctx.request.body ?? {});
    let record = await loadDrawRecord(db, id);
    if (!record) throw notFound('No winner has been drawn for this competition.');
    if (winnerTown !== undefined) record = await setWinnerTown(db, actorOf(ctx), id, winnerTown);
    if (prizeDelivered !== undefined) record = await setPrizeDelivered(db, actorOf(ctx), id, prizeDelivered);
    ctx.body = presentAdminWinner(record);
  });

  // One prize of several (position 1 = the 1st, the same as PATCH /api/admin/winners/:id).
  router.patch('/api/admin/winners/:id/prizes/:position', admin, async (ctx) => {
    const { id, position } = parse(PrizePositionParamSchema, ctx.params);
    const { prizeDelivered } = parse(PrizeDeliveryUpdateSchema, ctx.request.body ?? {});
    const record = await setPrizeDelivered(db, actorOf(ctx), id, prizeDelivered, Date.now(), position);
    ctx.body = presentAdminWinner(record);
  });
}
