import { listInstantWins } from '../../api/catalogue/instantWins/list';
import { presentPublicInstantWins } from '../../api/catalogue/instantWins/presenter';
import { presentCompetition } from '../../api/catalogue/presenter';
import { loadDrawRecord } from '../../api/draws/drawRecords';
import { type DrawRecord, presentPublicDraw } from '../../api/draws/presenter';
import type {} from '../../api/orders/bulkRefund/events';
import { defaultCap } from '../../api/tickets/holdChecks';
import { iso } from '../../contract/dates';
import type { Competition } from '../../db/models';
import { ADMINS_ROOM, competitionRoom } from '../rooms';
import type { ProjectionDeps } from './deps';

/** A changed (or deleted) competition becomes `competition:updated`, as its public page shows it. */
export function projectCompetitions(deps: ProjectionDeps): void {
  const { db, events, logger } = deps;
  events.subscribe('competition.updated', async ({ competition, version, deleted }) => {
    try {
      // Only a drawn competition needs its result, which went out just before.
      const draw = competition.drawnAt && !deleted ? await loadDrawRecord(db, competition.id) : undefined;
      if (!events.closed) await emitCompetition(deps, competition, version, draw, deleted);
    } catch (err) {
      logger.error({ err, competitionId: competition.id }, 'competition push failed');
    }
  });
  // A scheduled launch reached its opening: every watcher's page unlocks (docs/product.md).
  events.subscribe('competition.opened', ({ competitionId, openedAt }) =>
    deps.broadcast(competitionRoom(competitionId), 'competition:opened', {
      competitionId,
      openedAt: iso(openedAt),
    }),
  );
  // Short of its minimum at the end date: every watcher sees the new end date and why.
  events.subscribe('competition.extended', ({ competitionId, endDate, extensionsUsed }) =>
    deps.broadcast(competitionRoom(competitionId), 'competition:extended', {
      competitionId,
      endDate: iso(endDate),
      extensionsUsed,
    }),
  );
  // A cancelled competition's bulk refund: the admins' progress bars.
  events.subscribe('bulk-refund.progress', ({ job }) => deps.broadcast(ADMINS_ROOM, 'admin:job', job));
}

async function emitCompetition(
  { db, events, broadcast }: ProjectionDeps,
  competition: Competition,
  version: number,
  draw: DrawRecord | undefined,
  deleted = false,
): Promise<void> {
  const cap = await defaultCap(db);
  if (events.closed) return;
  const instantRows = deleted ? [] : await listInstantWins(db, competition.id);
  if (events.closed) return;
  const fields = presentCompetition(
    competition,
    cap,
    draw ? presentPublicDraw(draw) : null,
    presentPublicInstantWins(competition, instantRows, Date.now()),
  );
  const gone = deleted ? { status: 'archived' as const, deleted: true } : {};
  broadcast(competitionRoom(competition.id), 'competition:updated', {
    ...fields,
    ...gone,
    competitionId: competition.id,
    version,
  });
}
