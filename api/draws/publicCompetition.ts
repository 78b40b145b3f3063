import type { Knex } from 'knex';
import type { PublicCompetition } from '../../contract/competitions';
import { findViewableCompetition } from '../catalogue/competitions';
import { listInstantWins } from '../catalogue/instantWins/list';
import { presentPublicInstantWins } from '../catalogue/instantWins/presenter';
import { presentCompetition } from '../catalogue/presenter';
import { defaultCap } from '../tickets/holdChecks';
import { loadDrawRecord } from './drawRecords';
import { presentPublicDraw } from './presenter';

// A competition as any visitor sees it, for GET /api/competitions/:id and for the competition page
// the server renders (api/pages/pageSeed.ts): one function, so both answer the same.

/** A competition as its public page shows it, with the draw's result once drawn (404 if not viewable). */
export async function publicCompetition(
  db: Knex,
  id: number,
  { drafts = false }: { drafts?: boolean } = {},
): Promise<PublicCompetition> {
  const c = await findViewableCompetition(db, id, { drafts });
  const record = c.drawnAt ? await loadDrawRecord(db, c.id) : undefined;
  const instant = presentPublicInstantWins(c, await listInstantWins(db, c.id), Date.now());
  return presentCompetition(c, await defaultCap(db), record ? presentPublicDraw(record) : null, instant);
}
