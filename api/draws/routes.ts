import type { Router } from '@koa/router';
import type { Context } from 'koa';
import type { AdminCompetitionDetail } from '../../contract/admin';
import { DRAW_ROUTES as R } from '../../contract/apiDraws';
import { iso } from '../../contract/dates';
import type { DrawScheduled } from '../../contract/draw';
import { findAnyCompetition } from '../catalogue/adminCompetitions';
import { presentAdminCompetition } from '../catalogue/adminPresenter';
import { listInstantWins } from '../catalogue/instantWins/list';
import { presentAdminInstantWin } from '../catalogue/instantWins/presenter';
import { refundJobIdOf } from '../catalogue/launch/minimumSalesFields';
import { actorOf } from '../http/adminActor';
import { isAdminViewer, requireAdmin } from '../http/auth';
import { serve } from '../http/serve';
import { auditTrail } from '../platform/auditLog';
import type { AppDeps } from '../platform/context';
import { notFound } from '../platform/errors';
import { answerLocalBeacon } from './beacon/localBeacon';
import { withClaims, withInstantClaims } from './claims/adminClaims';
import type { DrawDeps } from './drawable';
import { drawEntries, loadDrawRecord } from './drawRecords';
import { adminDrawStatus } from './drawStatus';
import { drawCompetition } from './draws';
import { type DrawRecord, presentAdminWinner, presentPublicDraw, presentWinner } from './presenter';
import { publicCompetition } from './publicCompetition';
import { publishedStories, setWinnerStory, withStories } from './stories/winnerStories';
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
  /** The admin's view of draws: every prize's winner with its claim and story. */
  const adminWinners = async (records: DrawRecord[]) =>
    withStories(db, await withClaims(db, records.map(presentAdminWinner)));

  // A draft answers 404 but to an admin, who previews it at its real URL.
  serve(router, R.competition, async (input, ctx) => {
    return await publicCompetition(db, input.params.id, { drafts: await isAdminViewer(db, ctx) });
  });

  serve(router, R.drawEntries, async (input, _ctx) => {
    return await drawEntries(db, input.params.id);
  });

  // Each drawn competition with its winners' stories published with their consent.
  serve(router, R.winners, async (_input, _ctx) => {
    const records = await listWinners(db);
    const stories = await publishedStories(db, records);
    return records.map((r) => {
      const published = stories.get(Number(r.competitionId));
      return published ? { ...presentWinner(r), stories: published } : presentWinner(r);
    });
  });

  serve(router, R.adminCompetition, admin, async (input, _ctx) => {
    const c = await findAnyCompetition(db, input.params.id);
    // Where the draw stands (or why there is none, e.g. no sales), and its result once drawn.
    const { drawStatus, record } = await adminDrawStatus(db, c, config.drawAutoAfterSeconds);
    const detail: AdminCompetitionDetail = {
      ...presentAdminCompetition(c),
      drawStatus,
      draw: record ? (await adminWinners([record]))[0]! : null,
      auditLog: await auditTrail(db, 'competition', c.id),
      instantWinCommitment: c.instantWinCommitment ?? null,
      instantWins: await withInstantClaims(db, (await listInstantWins(db, c.id)).map(presentAdminInstantWin)),
      refundJobId: await refundJobIdOf(db, c.id),
    };
    return detail;
  });

  // Draws now when its beacon round is out within seconds; otherwise 202: the round is fixed and
  // published, and the draw follows it (the job draws it).
  serve(router, R.draw, admin, async (input, ctx) => {
    const id = input.params.id;
    const outcome = await drawCompetition(deps, id, { kind: 'admin', actor: actorOf(ctx) });
    if (outcome.kind === 'drawn') {
      return presentPublicDraw(outcome.record);
    }
    const scheduled: DrawScheduled = {
      scheduled: true,
      message: outcome.message,
      round: outcome.round.round,
      dueAt: iso(outcome.round.dueAt),
    };
    ctx.status = 202;
    return scheduled;
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
    serve(router, R.beaconInfo, (_, ctx) => answer(ctx, '/info'));
    serve(router, R.beaconRound, ({ params }, ctx) => answer(ctx, `/public/${params.round}`));
  }

  serve(router, R.adminWinners, admin, async (_input, _ctx) => {
    return await adminWinners(await listAdminWinners(db));
  });

  serve(router, R.updateWinner, admin, async (input, ctx) => {
    const id = input.params.id;
    const { prizeDelivered, winnerTown } = input.body;
    let record = await loadDrawRecord(db, id);
    if (!record) throw notFound('No winner has been drawn for this competition.');
    if (winnerTown !== undefined) record = await setWinnerTown(db, actorOf(ctx), id, winnerTown);
    if (prizeDelivered !== undefined) record = await setPrizeDelivered(db, actorOf(ctx), id, prizeDelivered);
    return (await adminWinners([record]))[0]!;
  });

  // One prize of several (position 1 = the 1st, the same as PATCH /api/admin/winners/:id).
  serve(router, R.updatePrize, admin, async ({ params: { id, position }, body: { prizeDelivered } }, ctx) => {
    const record = await setPrizeDelivered(db, actorOf(ctx), id, prizeDelivered, Date.now(), position);
    return (await adminWinners([record]))[0]!;
  });

  // A prize's winner story: nothing without the publicity tick (400 by the schema).
  serve(router, R.updateWinnerStory, admin, async ({ params: { id, position }, body }, ctx) => {
    const record = await setWinnerStory(db, actorOf(ctx), id, position, body);
    return (await adminWinners([record]))[0]!.prizes!.find((p) => p.position === position)!;
  });
}
