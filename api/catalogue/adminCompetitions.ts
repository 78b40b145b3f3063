import type { Knex } from 'knex';
import type { CompetitionCreateInput, CompetitionUpdateInput } from '../../contract/admin';
import { type Bundle, bundleProblem, bundlesToPence } from '../../contract/bundles';
import type { CompetitionStatus } from '../../contract/competitions';
import { ERROR_CODES } from '../../contract/errors';
import { IMAGE_NOT_FIRST } from '../../contract/gallery';
import { poundsToPence } from '../../contract/money';
import { mainPrizesOf } from '../../contract/prizes';
import { PROMOTER_DETAILS_MISSING, promoterComplete } from '../../contract/promoter';
import { lockRows, shareRows } from '../../db/locks';
import { CartItem, Competition, type InstantWin } from '../../db/models';
import { type Actor, writeAudit } from '../platform/auditLog';
import { badRequest, conflict, notFound } from '../platform/errors';
import type { EventBus } from '../platform/events';
import { readPromoter } from '../platform/settings/promoter';
import { inUnitOfWork } from '../platform/unitOfWork';
import { ownerOf } from '../tickets/cartQueries';
import { cartChanged, cartKeyOf } from '../tickets/cartRevision';
import { bumpVersionNow } from '../tickets/competitionVersions';
import { liveTickets } from '../tickets/liveTickets';
import { presentAdminCompetition } from './adminPresenter';
import { newDrawSeed } from './drawSeed';
import {
  commitIfOpen,
  highestInstantWinNumber,
  listInstantWins,
  replaceInstantWins,
} from './instantWins/list';
import { instantWinsClosed, presentAdminInstantWin } from './instantWins/presenter';
import { assertMinimumSalesEdit } from './launch/minimumSalesFields';
import { openingChange, opensNow } from './launch/opening';

// Competitions as the admin runs them (docs/product.md#admin-competitions). Edits reach open browsers as
// `competition:updated` (published after COMMIT, with the competition's new version).

export interface AdminDeps {
  db: Knex;
  events: EventBus;
}

const END_DATE_PAST = 'End date must be in the future';
const HAS_SALES = 'This competition has sales and cannot be deleted. End or archive it instead.';
const NOT_FOUND = 'Competition not found';
const PRIZES_FIXED = "This competition's draw is fixed or made, so its prizes can't be changed.";
const DRAWN_FINAL = "This competition has been drawn, so it can't be made active again.";
const INSTANT_WINS_REVEALED =
  "This competition's instant wins have been revealed since it closed, so it can't be reopened.";

/** Every competition, or one tab's; non-auto-win first, then newest (docs/product.md#admin-competitions). */
export async function listAdminCompetitions(db: Knex, status?: CompetitionStatus): Promise<Competition[]> {
  const q = Competition.query(db).orderBy([
    { column: 'autoWin', order: 'asc' },
    { column: 'createdAt', order: 'desc' },
    { column: 'id', order: 'desc' },
  ]);
  if (status) q.where('status', status);
  return q;
}

/** The competitions with order lines (ever sold): deleteCompetition refuses them. */
export async function competitionsWithSales(db: Knex): Promise<Set<number>> {
  const rows = (await db('orderItems').distinct('competitionId')) as Array<{ competitionId: number }>;
  return new Set(rows.map((r) => Number(r.competitionId)));
}

/** Any competition by id, archived too (the admin sees everything); 404 when there is none. */
export async function findAnyCompetition(db: Knex, id: number): Promise<Competition> {
  const c = (await Competition.query(db).findById(id)) as Competition | undefined;
  if (!c) throw notFound(NOT_FOUND);
  return c;
}

type Row = Partial<
  Omit<Competition, 'features' | 'details' | 'skillQuestions' | 'mainPrizes' | 'bundles' | 'images'>
> & {
  features?: string;
  bundles?: string | null;
  images?: string | null;
  mainPrizes?: string | null;
  details?: string;
  skillQuestions?: string | null;
};

/**
 * The gallery's columns (docs/product.md#prize-galleries). `images` replaces the gallery and
 * `image` follows its first picture; sent beside it, `image` must be that picture (400). `image`
 * alone, from a client that knows one picture, replaces the first picture (described by the
 * title) and null removes them all; sent unchanged it changes nothing.
 */
function galleryColumns(input: CompetitionUpdateInput, current?: Competition): Row {
  if (input.images !== undefined) {
    const first = input.images[0]?.url ?? null;
    if (input.image != null && input.image !== first) {
      throw badRequest(IMAGE_NOT_FIRST, { fields: { image: IMAGE_NOT_FIRST } });
    }
    return { image: first, images: input.images.length ? JSON.stringify(input.images) : null };
  }
  if (input.image === undefined) return {};
  if (!current?.images?.length || input.image === current.image) return { image: input.image };
  if (input.image === null) return { image: null, images: null };
  const [, ...rest] = current.images;
  const first = { url: input.image, alt: input.title ?? current.title };
  return { image: input.image, images: JSON.stringify([first, ...rest]) };
}

/** Input (pounds, ISO dates, objects) to columns (pence, epoch ms, JSON text). */
function columnsOf(input: CompetitionUpdateInput, current?: Competition): Row {
  const row: Row = galleryColumns(input, current);
  if (input.title !== undefined) row.title = input.title;
  if (input.description !== undefined) row.description = input.description;
  if (input.ticketPrice !== undefined) row.ticketPricePence = poundsToPence(input.ticketPrice);
  if (input.totalTickets !== undefined) row.totalTickets = input.totalTickets;
  if (input.endDate !== undefined) row.endDate = input.endDate;
  if (input.startsAt !== undefined) row.startsAt = input.startsAt;
  if (input.autoWin !== undefined) row.autoWin = input.autoWin;
  if (input.status !== undefined) row.status = input.status;
  if (input.features !== undefined) row.features = JSON.stringify(input.features);
  if (input.details !== undefined) {
    const { category, productName } = input.details;
    row.details = JSON.stringify(productName ? { category, productName } : { category });
  }
  if (input.maxTicketsPerUser !== undefined) row.maxTicketsPerUser = input.maxTicketsPerUser;
  if (input.prizeValue !== undefined)
    row.prizeValuePence = input.prizeValue === null ? null : poundsToPence(input.prizeValue);
  if (input.cashAlternative !== undefined) {
    row.cashAlternativePence = input.cashAlternative === null ? null : poundsToPence(input.cashAlternative);
  }
  // The pool; the older single `skillQuestion` is a pool of one (null: the default question).
  const pool =
    input.skillQuestions ??
    (input.skillQuestion === undefined ? undefined : input.skillQuestion ? [input.skillQuestion] : []);
  if (pool !== undefined) row.skillQuestions = JSON.stringify(pool);
  if (input.prizes !== undefined)
    row.mainPrizes = input.prizes === null ? null : JSON.stringify(input.prizes);
  if (input.minTicketsSold !== undefined) row.minTicketsSold = input.minTicketsSold;
  if (input.extendByDays !== undefined) row.extendByDays = input.extendByDays;
  if (input.maxExtensions !== undefined) row.maxExtensions = input.maxExtensions;
  if (input.bundles !== undefined)
    row.bundles = input.bundles?.length ? JSON.stringify(bundlesToPence(input.bundles)) : null;
  return row;
}

/**
 * 400 when the bundles (sent, or kept) are no bargain at the ticket price (sent, or kept): each
 * must cost less than its tickets singly, and a larger one never more per ticket.
 */
function assertBundlesFit(input: CompetitionUpdateInput, current?: Competition) {
  if (input.bundles === undefined && input.ticketPrice === undefined) return;
  const bundles: Bundle[] =
    input.bundles !== undefined ? bundlesToPence(input.bundles ?? []) : (current?.bundles ?? []);
  const unit = input.ticketPrice !== undefined ? poundsToPence(input.ticketPrice) : current!.ticketPricePence;
  const problem = bundleProblem(unit, bundles);
  if (problem) throw badRequest(problem, { fields: { bundles: problem } });
}

/** Nothing goes on sale without the promoter named (docs/compliance.md#the-promoter): 409 otherwise. */
async function assertPromoterNamed(db: Knex) {
  if (!promoterComplete(await readPromoter(db))) {
    throw conflict(PROMOTER_DETAILS_MISSING, undefined, ERROR_CODES.promoterDetailsMissing);
  }
}

export async function createCompetition(
  deps: AdminDeps,
  actor: Actor,
  input: CompetitionCreateInput,
  now = Date.now(),
): Promise<Competition> {
  if (input.status === 'active' && input.endDate <= now) {
    throw badRequest(END_DATE_PAST, { fields: { endDate: END_DATE_PAST } });
  }
  assertBundlesFit(input);
  if (input.status === 'active') await assertPromoterNamed(deps.db);
  assertMinimumSalesEdit(null, input);
  return inUnitOfWork(deps, async ({ trx, emit }) => {
    const [id] = await trx('competitions').insert({
      ...columnsOf({ ...input, skillQuestion: input.skillQuestion ?? null }),
      ticketsSold: 0,
      // The draw's secret and its public commitment, fixed before anything can be sold.
      ...newDrawSeed(),
      createdAt: now,
      updatedAt: now,
    });
    if (input.instantWins?.length) {
      await replaceInstantWins(trx, Number(id), input.totalTickets, input.instantWins, now);
      await auditInstantWins(trx, actor, Number(id), null, now);
    }
    // Sales open at once for an active competition: its instant-win list is committed now.
    await commitIfOpen(trx, Number(id));
    const created = (await Competition.query(trx).findById(Number(id)))!;
    // Open at once: after COMMIT, the 'new competition live' e-mail (api/accounts/marketing/). A
    // scheduled launch is announced at its opening instead (launch/openingJob.ts).
    if (opensNow(created, now)) {
      await trx('competitions').where({ id: created.id }).update({ openedAt: now });
      emit('competition.opened', { competitionId: created.id, openedAt: now });
    }
    await writeAudit(
      trx,
      actor,
      'competition.create',
      { type: 'competition', id: created.id },
      null,
      presentAdminCompetition(created),
      now,
    );
    return created;
  });
}

/** The audit row of a list change: the list before and after, as the admin's detail shows it. */
async function auditInstantWins(
  trx: Knex.Transaction,
  actor: Actor,
  competitionId: number,
  previous: InstantWin[] | null,
  now: number,
) {
  await writeAudit(
    trx,
    actor,
    'competition.instant_wins.set',
    { type: 'competition', id: competitionId },
    previous ? { instantWins: previous.map(presentAdminInstantWin) } : null,
    { instantWins: (await listInstantWins(trx, competitionId)).map(presentAdminInstantWin) },
    now,
  );
}

/** The highest number sold or held right now (0 when none), read with a lock on MySQL. */
async function highestTakenNumber(
  trx: Knex.Transaction,
  competitionId: number,
  now: number,
): Promise<number> {
  const q = shareRows(trx, 'ticket', liveTickets(trx, competitionId, now).max({ n: 'number' }).first());
  return Number(((await q) as { n: number | null } | undefined)?.n ?? 0);
}

/**
 * Some closings are final: a drawn competition stays drawn, and once a closed competition's
 * instant-win list has been revealed (with its salt, unwon numbers included: docs/draws.md) it
 * cannot go back on sale, where those numbers would be bought knowingly. 409 for either.
 */
function assertNotReopeningWhatIsFinal(current: Competition, input: CompetitionUpdateInput, now: number) {
  const reopens =
    (input.status === 'active' && current.status !== 'active') ||
    (input.endDate !== undefined && input.endDate > now && Number(current.endDate) <= now);
  if (input.status === 'active' && current.drawnAt) {
    throw conflict(DRAWN_FINAL, { fields: { status: DRAWN_FINAL } });
  }
  if (reopens && (input.status ?? current.status) === 'active' && current.instantWinCommitment) {
    if (instantWinsClosed(current, now)) {
      throw conflict(INSTANT_WINS_REVEALED, { fields: { status: INSTANT_WINS_REVEALED } });
    }
  }
}

/**
 * PUT: changes the fields sent. Lowering totalTickets below a number that is sold or held is
 * refused (409), as is an end date in the past for a competition left active.
 */
export async function updateCompetition(
  deps: AdminDeps,
  actor: Actor,
  id: number,
  input: CompetitionUpdateInput,
  now = Date.now(),
): Promise<Competition> {
  return inUnitOfWork(deps, async (uow) => {
    const { trx } = uow;
    const current = (await lockRows(trx, 'competition', Competition.query(trx).findById(id))) as
      | Competition
      | undefined;
    if (!current) throw notFound(NOT_FOUND);
    assertMinimumSalesEdit(current, input);
    const status = input.status ?? current.status;
    const endDate = input.endDate ?? current.endDate;
    if (
      status === 'active' &&
      endDate <= now &&
      (input.endDate !== undefined || input.status !== undefined)
    ) {
      throw badRequest(END_DATE_PAST, { fields: { endDate: END_DATE_PAST } });
    }
    assertNotReopeningWhatIsFinal(current, input, now);
    assertBundlesFit(input, current);
    if (input.status === 'active' && current.status !== 'active') await assertPromoterNamed(trx);
    const opening = await openingChange(trx, current, input, now);
    if (input.totalTickets !== undefined && input.totalTickets < current.totalTickets) {
      const highest = await highestTakenNumber(trx, id, now);
      if (highest > input.totalTickets) {
        const message = `Total tickets cannot be lower than ${highest}: ticket number ${highest} is already sold or held.`;
        throw conflict(message, { fields: { totalTickets: message }, highestTaken: highest });
      }
    }
    // The prizes are what the draw is made for: fixed once its beacon round is (docs/draws.md).
    const prizesChange =
      input.prizes !== undefined &&
      // Lists stored before prizes had a cash alternative and picture are compared in today's shape.
      JSON.stringify(input.prizes) !==
        JSON.stringify(current.mainPrizes?.length ? mainPrizesOf(current) : null);
    if (prizesChange && (current.drawnAt || current.drawBeaconRound)) {
      throw conflict(PRIZES_FIXED, { fields: { prizes: PRIZES_FIXED } });
    }
    const totalTickets = input.totalTickets ?? current.totalTickets;
    if (input.instantWins !== undefined) {
      const previous = await listInstantWins(trx, id);
      await replaceInstantWins(trx, id, totalTickets, input.instantWins, now);
      await auditInstantWins(trx, actor, id, previous, now);
    } else if (input.totalTickets !== undefined && input.totalTickets < current.totalTickets) {
      const highest = await highestInstantWinNumber(trx, id);
      if (highest > input.totalTickets) {
        const message = `Total tickets cannot be lower than ${highest}: an instant win uses ticket number ${highest}. Change the instant wins too.`;
        throw conflict(message, { fields: { totalTickets: message } });
      }
    }
    // The audit log keeps before and after as the admin's screen shows them.
    const before = presentAdminCompetition(current);
    const row = { ...columnsOf(input, current), ...opening };
    if (!Object.keys(row).length && input.instantWins === undefined) return current;
    if (Object.keys(row).length) {
      await trx('competitions')
        .where({ id })
        .update({ ...row, updatedAt: now });
    }
    // Turning active opens sales: the instant-win list (new or kept) is committed now.
    await commitIfOpen(trx, id);
    let updated = (await Competition.query(trx).findById(id))!;
    // A draft or archived competition made active opens (announced once); so does one whose opening
    // moved to now. Reopening an ended one does not: it was announced when it opened.
    if (opensNow(updated, now)) {
      await trx('competitions').where({ id }).update({ openedAt: now });
      updated = (await Competition.query(trx).findById(id))!;
      uow.emit('competition.opened', { competitionId: id, openedAt: now });
    }
    const after = presentAdminCompetition(updated);
    await writeAudit(trx, actor, 'competition.update', { type: 'competition', id }, before, after, now);
    // Last, as everywhere: the version row stays locked only until COMMIT.
    uow.emit('competition.updated', { competition: updated, version: await bumpVersionNow(trx, id) });
    return updated;
  });
}

/**
 * Deletes a competition that has never sold anything (no sold tickets, no order lines). Numbers
 * held in carts go with it. One with sales can only be ended or archived: 409.
 */
export async function deleteCompetition(deps: AdminDeps, actor: Actor, id: number, now = Date.now()) {
  await inUnitOfWork(deps, async (uow) => {
    const { trx } = uow;
    const current = (await lockRows(trx, 'competition', Competition.query(trx).findById(id))) as
      | Competition
      | undefined;
    if (!current) throw notFound(NOT_FOUND);
    const ordered = await trx('orderItems').where({ competitionId: id }).first('id');
    if (current.ticketsSold > 0 || ordered) throw conflict(HAS_SALES);
    const carts = (await CartItem.query(trx).where({ competitionId: id })) as CartItem[];
    // Held numbers go with their cart items (ON DELETE CASCADE); the history and the version row
    // go with the competition.
    await trx('cartItems').where({ competitionId: id }).delete();
    const versionRow = await trx('competitionVersions').where({ competitionId: id }).first('version');
    await trx('competitions').where({ id }).delete();
    await writeAudit(
      trx,
      actor,
      'competition.delete',
      { type: 'competition', id },
      presentAdminCompetition(current),
      null,
      now,
    );
    // Open pages learn it is gone (archived is what the public API calls hidden).
    uow.emit('competition.updated', {
      competition: current,
      version: Number(versionRow?.version ?? 0) + 1,
      deleted: true,
    });
    const owners = new Map(carts.map((c) => [cartKeyOf(ownerOf(c)), ownerOf(c)]));
    for (const owner of owners.values()) await cartChanged(uow, owner);
  });
}
