import type { Knex } from 'knex';
import { formatOrderNumber } from '../../../contract/checkout';
import { lockRows } from '../../../db/locks';
import { InstantWin } from '../../../db/models';
import { addCredit, spendCredit } from '../../accounts/credit';
import { presentInstantWinPrize } from '../../catalogue/instantWins/presenter';
import { publicOwnerName } from '../../catalogue/presenter';
import { closeInstantClaim, openInstantClaim } from '../../draws/claims/claims';
import { instantWinEmail } from '../../platform/email/templates/instantWins';
import { type OutboxKey, oweMail } from '../../platform/outbox/owe';
import type { UnitOfWork } from '../../platform/unitOfWork';
import type {} from './events';

// Instant wins are awarded by the sale itself (docs/draws.md#instant-wins): in the transaction that
// sells the number, with the competition row locked (so prizes are won in one order, each once),
// credit paid into the ledger at once. Cancelling the order gives the prize back, retired: its
// number has been public since the win, so it is never won again on that number.

export interface InstantWinSale {
  competitionId: number;
  /** The numbers sold, ascending. */
  numbers: readonly number[];
  userId: number | null;
  orderId: number;
  /** The name published with a win ('Sarah T.'), read only when something is won. */
  winnerName: () => Promise<string>;
  /** A postcard without an account: its wins are claimed with a link (docs/draws.md#7-claiming-a-prize). */
  postalEntryId?: number | null;
  /** Filled with each postcard claim's link token, by instant win id, for its e-mail only. */
  claimLinks?: Map<number, string>;
}

/** The published name of an account, as the entries list shows it. */
export async function winnerNameOf(trx: Knex, userId: number): Promise<string> {
  const u = await trx('users')
    .where({ id: userId })
    .first('firstName', 'lastName', 'username', 'deletedAt', 'publicNameMode', 'nickname');
  return u ? publicOwnerName(u) : 'Entrant';
}

/**
 * Awards every instant win among the sold numbers; the caller holds the competition's row lock.
 * Returns the prizes won, already updated.
 */
export async function awardInstantWins(
  trx: Knex.Transaction,
  sale: InstantWinSale,
  now: number,
): Promise<InstantWin[]> {
  if (!sale.numbers.length) return [];
  // Most competitions have none. The list itself cannot change once a number was held, so a plain
  // read answers that; only the win state below needs the locking read.
  if (!(await trx('instantWins').where({ competitionId: sale.competitionId }).first('id'))) return [];
  // A locking read: on MySQL it sees the latest committed wins, not the transaction's snapshot
  // (taken before the competition's lock was granted), so the win order has no gaps or repeats.
  const all = (await lockRows(
    trx,
    'instantWin',
    InstantWin.query(trx).where({ competitionId: sale.competitionId }).orderBy('number'),
  )) as InstantWin[];
  if (!all.length) return [];
  const sold = new Set(sale.numbers);
  const rows = all.filter((r) => r.wonAt === null && r.retiredAt === null && sold.has(Number(r.number)));
  if (!rows.length) return [];
  const winnerName = await sale.winnerName();
  let wonOrder = Math.max(0, ...all.map((r) => Number(r.wonOrder ?? 0)));
  for (const row of rows) {
    wonOrder += 1;
    const won = {
      wonAt: now,
      wonOrder,
      userId: sale.userId,
      orderId: sale.orderId,
      winnerName,
    };
    await trx('instantWins').where({ id: row.id }).update(won);
    Object.assign(row, won);
    if (row.kind === 'credit' && sale.userId && row.amountPence) {
      await addCredit(
        trx,
        sale.userId,
        {
          amountPence: Number(row.amountPence),
          description: `Instant win: ${row.title} (ticket ${row.number}, order ${formatOrderNumber(sale.orderId)})`,
          orderId: sale.orderId,
        },
        now,
      );
    }
    await claimInstantWin(trx, row, sale, now);
  }
  return rows;
}

/**
 * A prize (not credit) is claimed by its winner: the address and the deadline. A postcard without an
 * account claims with a link, credit included: without an account it is paid as its value in cash.
 */
async function claimInstantWin(trx: Knex, row: InstantWin, sale: InstantWinSale, now: number) {
  const win = {
    id: row.id,
    competitionId: row.competitionId,
    title: row.title,
    kind: row.kind,
    amountPence: row.amountPence === null ? null : Number(row.amountPence),
  };
  if (sale.userId) {
    if (row.kind === 'prize') await openInstantClaim(trx, win, { userId: sale.userId }, now);
    return;
  }
  if (!sale.postalEntryId || (row.kind === 'credit' && !win.amountPence)) return;
  const claim = await openInstantClaim(trx, win, { postalEntryId: sale.postalEntryId }, now);
  if (claim.token) sale.claimLinks?.set(row.id, claim.token);
}

/** After COMMIT: the watchers, the admins and the winner learn of each prize won. */
export function emitInstantWins(uow: UnitOfWork, won: readonly InstantWin[]) {
  for (const w of won) {
    uow.emit('instant-win.claimed', {
      competitionId: w.competitionId,
      number: Number(w.number),
      prizeTitle: w.title,
      winnerDisplayName: w.winnerName ?? 'Entrant',
      winnerUserId: w.userId,
      prize: presentInstantWinPrize(w),
    });
  }
}

export interface ReturnedInstantWin {
  instantWinId: number;
  competitionId: number;
  number: number;
  title: string;
  /** Credit prizes: whether the credit was taken back (false: already spent, the admin must act). */
  creditRecovered: boolean | null;
}

/**
 * A cancelled order gives back its instant wins: unspent prize credit is taken back (a ledger
 * row), and the prize is retired: its number was announced with the win, so whoever bought it next
 * would win knowingly (docs/draws.md#instant-wins). Credit already spent is reported for the admin.
 */
export async function returnInstantWins(
  trx: Knex.Transaction,
  orderId: number,
  now: number,
): Promise<ReturnedInstantWin[]> {
  // Locking read: the wins as last committed (the caller holds the order's lock).
  const rows = (await lockRows(
    trx,
    'instantWin',
    InstantWin.query(trx).where({ orderId }).whereNotNull('wonAt').orderBy('id'),
  )) as InstantWin[];
  const returned: ReturnedInstantWin[] = [];
  for (const row of rows) {
    let creditRecovered: boolean | null = null;
    if (row.kind === 'credit' && row.userId && row.amountPence) {
      creditRecovered = await spendCredit(
        trx,
        row.userId,
        {
          amountPence: Number(row.amountPence),
          description: `Instant win returned: ${row.title} (order ${formatOrderNumber(orderId)} cancelled)`,
          orderId,
        },
        now,
      );
    }
    await closeInstantClaim(trx, row.id);
    await trx('instantWins').where({ id: row.id }).update({
      wonAt: null,
      wonOrder: null,
      userId: null,
      orderId: null,
      winnerName: null,
      deliveredAt: null,
      retiredAt: now,
    });
    returned.push({
      instantWinId: row.id,
      competitionId: row.competitionId,
      number: Number(row.number),
      title: row.title,
      creditRecovered,
    });
  }
  return returned;
}

/** What the admin is told when a cancelled order's instant-win credit had already been spent. */
export function unrecoveredCreditNotice(returned: readonly ReturnedInstantWin[]): string | null {
  const spent = returned.filter((r) => r.creditRecovered === false);
  if (!spent.length) return null;
  return `The instant-win credit of ${spent.map((r) => `"${r.title}" (ticket ${r.number})`).join(', ')} had already been spent and could not be taken back: please deal with it by hand.`;
}

/** Where a win's e-mail goes: the account (not deleted), else the postcard of an entrant without one. */
const winnerContact = (r: {
  userId: number | null;
  email: string | null;
  deletedAt: unknown;
  postalEmail: string | null;
}) => (r.userId === null ? r.postalEmail : r.deletedAt ? null : r.email);

/** The greeting: the account's first name or username, else the postcard's first name. */
const greetingOf = (r: { firstName: string | null; username: string | null; postalName: string | null }) =>
  r.firstName?.trim() || r.username || r.postalName?.trim().split(/\s+/)[0] || 'there';

/**
 * The winner's e-mail for each prize an order won, owed in the sale's transaction (after the
 * awards). One per prize and order: a prize returned by a cancellation and won again is new news.
 * A postcard without an account is e-mailed at its address, with its claim's link token (`links`,
 * from the award: the claim keeps only its hash).
 */
export async function oweInstantWinEmails(
  trx: Knex,
  orderId: number,
  now: number,
  links: ReadonlyMap<number, string> = new Map(),
): Promise<OutboxKey[]> {
  const rows = await trx('instantWins as w')
    .leftJoin('users as u', 'u.id', 'w.userId')
    .leftJoin('postalEntries as pe', 'pe.orderId', 'w.orderId')
    .join('competitions as c', 'c.id', 'w.competitionId')
    .leftJoin('prizeClaims as pc', (j) => j.on('pc.instantWinId', 'w.id').andOnVal('pc.kind', 'instant'))
    .where('w.orderId', orderId)
    .whereNotNull('w.wonAt')
    .orderBy('w.id')
    .select(
      'w.*',
      'u.email',
      'u.firstName',
      'u.username',
      'u.deletedAt',
      'pe.email as postalEmail',
      'pe.name as postalName',
      'c.title as competitionTitle',
      'pc.id as claimId',
      'pc.deadlineAt as claimDeadline',
    );
  const keys: OutboxKey[] = [];
  for (const r of rows) {
    const to = winnerContact(r);
    if (!to) continue;
    const token = links.get(Number(r.id));
    keys.push(
      await oweMail(
        trx,
        {
          template: instantWinEmail,
          subject: `instant-win:${r.id}:order:${orderId}`,
          recipient: { to, userId: r.userId },
          props: {
            name: greetingOf(r),
            competitionTitle: r.competitionTitle,
            prizeTitle: r.title,
            number: Number(r.number),
            kind: r.kind,
            amountPence: r.amountPence === null ? null : Number(r.amountPence),
            description: r.description,
            orderLink: `/confirmation/${orderId}`,
            ...(r.claimId
              ? {
                  claimLink: token ? `/claims/${r.claimId}?token=${token}` : `/claims/${r.claimId}`,
                  claimDeadline: Number(r.claimDeadline),
                }
              : {}),
            ...(token ? { claimByLink: true } : {}),
          },
        },
        now,
      ),
    );
  }
  return keys;
}
