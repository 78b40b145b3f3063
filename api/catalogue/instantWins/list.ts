import { randomBytes, randomInt } from 'node:crypto';
import type { Knex } from 'knex';
import { AGE_CHECK_BEFORE_DELIVERY } from '../../../contract/age';
import { ERROR_CODES } from '../../../contract/errors';
import {
  INSTANT_WINS_LOCKED,
  type InstantWinInput,
  instantWinCommitment,
} from '../../../contract/instantWins';
import { SITE_SETTINGS } from '../../../contract/siteSettings';
import { lockRows, shareRows } from '../../../db/locks';
import { InstantWin } from '../../../db/models';
import { type Actor, writeAudit } from '../../platform/auditLog';
import { badRequest, conflict, notFound } from '../../platform/errors';
import { readSiteSetting } from '../settings';
import { committedList } from './presenter';

// The instant-win list of a competition as the admin sets it (docs/draws.md#instant-wins): numbers
// chosen (crypto randomness) or given, fixed before the first hold, and committed to when sales
// open. Before the close the unwon numbers leave the server only in the admin's views.

/** A prize line with its numbers decided, ready to insert. */
interface PlannedWin {
  title: string;
  kind: InstantWinInput['kind'];
  amountPence: number | null;
  description: string | null;
  cashValuePence: number | null;
  number: number;
}

/**
 * Decides every number: explicit ones are checked (in range, distinct across the list), then each
 * count takes random free numbers. 400 with a clear message otherwise.
 */
export function planInstantWins(list: readonly InstantWinInput[], totalTickets: number): PlannedWin[] {
  const taken = new Set<number>();
  for (const w of list) {
    for (const n of w.numbers ?? []) {
      if (n > totalTickets) {
        throw badRequest(
          `Instant-win number ${n} is not a ticket number: tickets run from 1 to ${totalTickets}.`,
          {
            fields: { instantWins: 'Instant-win numbers must be ticket numbers of this competition' },
          },
        );
      }
      if (taken.has(n)) {
        throw badRequest(`Instant-win number ${n} is listed twice: each number can win only one prize.`, {
          fields: { instantWins: 'Each instant-win number can be listed once' },
        });
      }
      taken.add(n);
    }
  }
  const wanted = list.reduce((sum, w) => sum + (w.count ?? 0), 0);
  if (taken.size + wanted > totalTickets) {
    throw badRequest(
      `There are ${totalTickets} tickets: not enough for ${taken.size + wanted} instant wins.`,
      {
        fields: { instantWins: 'More instant wins than tickets' },
      },
    );
  }
  const planned: PlannedWin[] = [];
  for (const w of list) {
    const line = {
      title: w.title,
      kind: w.kind,
      amountPence: w.kind === 'credit' ? (w.amountPence ?? null) : null,
      description: w.description || null,
      cashValuePence: w.cashValuePence ?? null,
    };
    const numbers = [...(w.numbers ?? [])];
    for (let i = 0; i < (w.count ?? 0); i++) {
      // Rejection sampling over a small list (at most 1000 numbers): uniform over the free ones.
      let n: number;
      do n = randomInt(1, totalTickets + 1);
      while (taken.has(n));
      taken.add(n);
      numbers.push(n);
    }
    for (const number of numbers) planned.push({ ...line, number });
  }
  return planned;
}

/**
 * Whether any number of the competition was ever held or sold (the history keeps every hold). The
 * tickets read is a locking one on MySQL: a hold committing meanwhile waits for this change, or is
 * seen by it.
 */
export async function everHeldOrSold(trx: Knex.Transaction, competitionId: number): Promise<boolean> {
  const [ticket, event, line] = await Promise.all([
    shareRows(trx, 'ticket', trx('tickets').where({ competitionId }).first('id')),
    trx('ticketEvents').where({ competitionId }).first('id'),
    trx('orderItems').where({ competitionId }).first('id'),
  ]);
  return Boolean(ticket || event || line);
}

export async function listInstantWins(db: Knex, competitionId: number): Promise<InstantWin[]> {
  return InstantWin.query(db).where({ competitionId }).orderBy('id');
}

/**
 * Publishes the commitment when sales open with a list and none is published: a fresh 32-byte salt
 * and SHA-256 over the canonical list. Called by the caller holding the competition row's lock.
 */
export async function commitIfOpen(trx: Knex.Transaction, competitionId: number): Promise<void> {
  const c = (await trx('competitions')
    .where({ id: competitionId })
    .first('status', 'instantWinCommitment')) as
    | { status: string; instantWinCommitment: string | null }
    | undefined;
  if (c?.status !== 'active' || c.instantWinCommitment) return;
  const rows = await listInstantWins(trx, competitionId);
  if (!rows.length) return;
  const salt = randomBytes(32).toString('hex');
  const commitment = await instantWinCommitment(salt, committedList(rows));
  await trx('competitions')
    .where({ id: competitionId })
    .update({ instantWinSalt: salt, instantWinCommitment: commitment });
}

/**
 * Replaces the list (create, or an edit while nothing was ever held or sold: 409 after that). The
 * old commitment goes with the old list; commitIfOpen publishes the new one.
 */
export async function replaceInstantWins(
  trx: Knex.Transaction,
  competitionId: number,
  totalTickets: number,
  list: readonly InstantWinInput[],
  now: number,
): Promise<void> {
  if (await everHeldOrSold(trx, competitionId)) throw conflict(INSTANT_WINS_LOCKED);
  const planned = planInstantWins(list, totalTickets);
  await trx('instantWins').where({ competitionId }).delete();
  if (planned.length) {
    await trx('instantWins').insert(planned.map((p) => ({ ...p, competitionId, createdAt: now })));
  }
  await trx('competitions')
    .where({ id: competitionId })
    .update({ instantWinSalt: null, instantWinCommitment: null });
}

/** The highest instant-win number (0 when none): total tickets may not go below it. */
export async function highestInstantWinNumber(trx: Knex, competitionId: number): Promise<number> {
  const row = (await trx('instantWins').where({ competitionId }).max({ n: 'number' }).first()) as
    | { n: number | null }
    | undefined;
  return Number(row?.n ?? 0);
}

/**
 * Marks a won physical prize delivered (or not): 404 unknown, 409 not won yet or a credit prize
 * (credit is paid at once). Audited as main winners' deliveries are.
 */
export async function setInstantWinDelivered(
  db: Knex,
  actor: Actor,
  competitionId: number,
  prizeId: number,
  delivered: boolean,
  now = Date.now(),
): Promise<InstantWin> {
  await db.transaction(async (trx) => {
    const row = (await lockRows(
      trx,
      'instantWin',
      InstantWin.query(trx).findOne({ id: prizeId, competitionId }),
    )) as InstantWin | undefined;
    if (!row) throw notFound('Instant win not found');
    if (row.kind === 'credit')
      throw conflict('Credit instant wins are paid into the winner’s account at once.');
    if (row.wonAt === null) throw conflict('This instant win has not been won yet.');
    const at = delivered ? (row.deliveredAt ?? now) : null;
    if (at === row.deliveredAt) return;
    if (delivered) await assertWinnerAgeChecked(trx, row);
    await trx('instantWins').where({ id: prizeId }).update({ deliveredAt: at });
    await writeAudit(
      trx,
      actor,
      delivered ? 'competition.instant_win_delivered' : 'competition.instant_win_undelivered',
      { type: 'competition', id: competitionId },
      { instantWinId: prizeId, number: Number(row.number), deliveredAt: row.deliveredAt },
      { instantWinId: prizeId, deliveredAt: at },
      now,
    );
  });
  return (await InstantWin.query(db).findById(prizeId))!;
}

/**
 * As for main prizes (api/draws/winners.ts): a prize worth more than the site's age-check
 * threshold goes only to a winner whose age an admin has verified; a postcard without an account
 * has none to verify, so its prize waits too.
 */
async function assertWinnerAgeChecked(trx: Knex.Transaction, row: InstantWin) {
  const { ageCheckPrizeThresholdPence } = await readSiteSetting(trx, SITE_SETTINGS.compliance);
  const value = row.cashValuePence === null ? null : Number(row.cashValuePence);
  if (value !== null && value <= ageCheckPrizeThresholdPence) return;
  const winner = row.userId
    ? ((await trx('users').where({ id: row.userId }).first('ageVerifiedAt')) as
        | { ageVerifiedAt: number | null }
        | undefined)
    : undefined;
  if (winner?.ageVerifiedAt == null)
    throw conflict(AGE_CHECK_BEFORE_DELIVERY, undefined, ERROR_CODES.ageVerificationRequired);
}
