import type { Knex } from 'knex';
import type { InstantWinInput } from '../../../contract/instantWins';
import { Competition } from '../../../db/models';
import { type Actor, writeAudit } from '../../platform/auditLog';
import { notFound } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import { inUnitOfWork } from '../../platform/unitOfWork';
import { presentAdminCompetition } from '../adminPresenter';
import { newDrawSeed } from '../drawSeed';
import { planInstantWins } from '../instantWins/list';

// Duplicate and relist (docs/product.md#drafts-and-scheduled-launches): a new draft with what the
// admin wrote, never what the competition became. Every column is copied but these: identity,
// status, the draw (seed, commitment, beacon, result), the instant-win commitment, the sales and
// the opening, so a column added later is copied unless it is listed here.
const NOT_COPIED = new Set([
  'id',
  'status',
  'ticketsSold',
  'createdAt',
  'updatedAt',
  'startsAt',
  'openedAt',
  'drawnAt',
  'instantWinSalt',
  'instantWinCommitment',
]);
// The launch queue goes with the opening (it needs one): a copy has none, and never the seed.
const notCopied = (column: string) =>
  NOT_COPIED.has(column) ||
  column.startsWith('draw') ||
  column.startsWith('queue') ||
  column === 'launchQueue';

const DAY_MS = 86_400_000;

/**
 * The copy: a draft, its own seed and commitment, the same instant-win prizes at new numbers (its
 * own commitment follows when it opens). A closed source's end date moves on by the time it ran.
 */
export async function duplicateCompetition(
  deps: { db: Knex; events: EventBus },
  actor: Actor,
  id: number,
  now = Date.now(),
): Promise<number> {
  return inUnitOfWork(deps, async ({ trx }) => {
    const source = (await trx('competitions').where({ id }).first()) as Record<string, unknown> | undefined;
    if (!source) throw notFound('Competition not found');
    const copy = Object.fromEntries(Object.entries(source).filter(([k]) => !notCopied(k)));
    const endDate = Number(source.endDate);
    if (endDate <= now) copy.endDate = now + Math.max(DAY_MS, endDate - Number(source.createdAt));
    const [newId] = await trx('competitions').insert({
      ...copy,
      status: 'draft',
      ticketsSold: 0,
      ...newDrawSeed(),
      createdAt: now,
      updatedAt: now,
    });
    const copyId = Number(newId);
    const wins = (await trx('instantWins').where({ competitionId: id }).whereNull('retiredAt')) as Array<{
      title: string;
      kind: 'credit' | 'prize';
      amountPence: number | null;
      description: string | null;
      cashValuePence: number | null;
    }>;
    if (wins.length) {
      const lines = new Map<string, InstantWinInput & { count: number }>();
      for (const w of wins) {
        const key = JSON.stringify([w.title, w.kind, w.amountPence, w.description, w.cashValuePence]);
        const line = lines.get(key) ?? {
          title: w.title,
          kind: w.kind,
          ...(w.amountPence === null ? {} : { amountPence: Number(w.amountPence) }),
          ...(w.description ? { description: w.description } : {}),
          ...(w.cashValuePence === null ? {} : { cashValuePence: Number(w.cashValuePence) }),
          count: 0,
        };
        line.count += 1;
        lines.set(key, line);
      }
      const planned = planInstantWins([...lines.values()] as InstantWinInput[], Number(copy.totalTickets));
      await trx('instantWins').insert(planned.map((p) => ({ ...p, competitionId: copyId, createdAt: now })));
    }
    const created = (await Competition.query(trx).findById(copyId))!;
    await writeAudit(
      trx,
      actor,
      'competition.duplicate',
      { type: 'competition', id: copyId },
      null,
      { ...presentAdminCompetition(created), copiedFrom: id },
      now,
    );
    return copyId;
  });
}
