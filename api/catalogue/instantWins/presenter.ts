import { iso } from '../../../contract/dates';
import type {
  AdminInstantWin,
  CommittedInstantWin,
  InstantWinPrize,
  InstantWinReveal,
  PublicInstantWin,
} from '../../../contract/instantWins';
import type { Competition, InstantWin } from '../../../db/models';

/** The committed lines, in the commitment's order. */
export const committedList = (rows: readonly InstantWin[]): CommittedInstantWin[] =>
  rows
    .map((r) => ({
      number: Number(r.number),
      id: Number(r.id),
      title: r.title,
      kind: r.kind,
      valuePence: Number((r.kind === 'credit' ? r.amountPence : r.cashValuePence) ?? 0),
    }))
    .sort((a, b) => a.number - b.number);

/**
 * The public view of the list: a number only once it was won, or once retired (public since its
 * win, docs/draws.md#instant-wins).
 */
export const presentPublicInstantWin = (w: InstantWin): PublicInstantWin => ({
  id: w.id,
  title: w.title,
  kind: w.kind,
  won: w.wonAt !== null,
  ...(w.wonAt !== null ? { number: Number(w.number), winnerDisplayName: w.winnerName ?? 'Entrant' } : {}),
  ...(w.retiredAt != null ? { number: Number(w.number), retired: true } : {}),
});

/**
 * Short of its minimum past the end date: waiting to be extended (back on sale, its instant wins
 * still secret) or cancelled (docs/product.md#minimum-sales-and-cancellation).
 */
const awaitingMinimumRule = (c: Competition) =>
  c.status === 'active' && c.minTicketsSold != null && Number(c.ticketsSold) < Number(c.minTicketsSold);

/**
 * Closed for instant wins: no longer on sale, or drawn. Then the salt and the list are revealed;
 * never for a cancelled competition, nor one the minimum-sales rule may yet extend.
 */
export const instantWinsClosed = (c: Competition, now: number): boolean =>
  c.status !== 'cancelled' &&
  !awaitingMinimumRule(c) &&
  (c.status !== 'active' || Number(c.endDate) <= now || c.drawnAt !== null);

/** What the public competition JSON carries about instant wins, beside its commitment. */
export function presentPublicInstantWins(
  c: Competition,
  rows: readonly InstantWin[],
  now: number,
): { instantWins: PublicInstantWin[]; instantWinReveal?: InstantWinReveal } {
  return {
    instantWins: rows.map(presentPublicInstantWin),
    ...(c.instantWinCommitment && c.instantWinSalt && instantWinsClosed(c, now)
      ? { instantWinReveal: { salt: c.instantWinSalt, list: committedList(rows) } }
      : {}),
  };
}

export const presentAdminInstantWin = (w: InstantWin): AdminInstantWin => ({
  id: w.id,
  title: w.title,
  kind: w.kind,
  amountPence: w.amountPence === null ? null : Number(w.amountPence),
  description: w.description,
  cashValuePence: w.cashValuePence === null ? null : Number(w.cashValuePence),
  number: Number(w.number),
  won: w.wonAt !== null,
  wonAt: w.wonAt === null ? null : iso(w.wonAt),
  wonOrder: w.wonOrder === null ? null : Number(w.wonOrder),
  winner:
    w.wonAt === null
      ? null
      : { userId: w.userId, displayName: w.winnerName ?? 'Entrant', orderId: w.orderId },
  deliveredAt: w.deliveredAt === null ? null : iso(w.deliveredAt),
  retiredAt: w.retiredAt == null ? null : iso(w.retiredAt),
});

/** What a buyer won (order view, `instant:won`). */
export const presentInstantWinPrize = (w: InstantWin): InstantWinPrize => ({
  id: w.id,
  competitionId: w.competitionId,
  number: Number(w.number),
  title: w.title,
  kind: w.kind,
  amountPence: w.amountPence === null ? null : Number(w.amountPence),
  description: w.description,
});
