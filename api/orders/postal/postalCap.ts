import type { Knex } from 'knex';
import { ERROR_CODES } from '../../../contract/errors';
import { addressKeyOf, emailKeyOf, type PostalEntryInput } from '../../../contract/postal';
import { shareRows } from '../../../db/locks';
import { conflict } from '../../platform/errors';
import { capOf, ticketsOfOwner } from '../../tickets/holdChecks';

// The per-person cap for a postal entry (docs/security.md#caps-and-hold-limits). With an account
// the entry counts with that account's tickets (held and bought, postal ones included, since
// they are sold on the account). Without one, the entrant is known only by the postcard: entries
// with the same normalised e-mail, or the same normalised address and postcode, count together.
// The caller holds the competition row's lock, so two postcards of one entrant serialise.

/** Postal entries still standing (their £0 order not cancelled) that share the e-mail or address. */
async function postalEntriesOf(trx: Knex.Transaction, competitionId: number, input: PostalEntryInput) {
  // A locking read sees entries committed since this transaction's snapshot (as holdChecks does).
  const q = trx('postalEntries as p')
    .join('orders as o', 'o.id', 'p.orderId')
    .where('p.competitionId', competitionId)
    .andWhere('o.status', 'completed')
    .andWhere((w) =>
      w
        .where('p.emailKey', emailKeyOf(input.email))
        .orWhere('p.addressKey', addressKeyOf(input.address, input.postcode)),
    )
    .count({ n: '*' })
    .first();
  return Number(((await shareRows(trx, 'ticket', q)) as { n: number } | undefined)?.n ?? 0);
}

export async function enforcePostalCap(
  trx: Knex.Transaction,
  competition: { id: number; maxTicketsPerUser: number | null },
  input: PostalEntryInput,
  now: number,
): Promise<void> {
  const cap = await capOf(trx, competition);
  const has = input.userId
    ? await ticketsOfOwner(trx, competition.id, { guestId: '', userId: input.userId }, now)
    : await postalEntriesOf(trx, competition.id, input);
  if (has + 1 > cap) {
    throw conflict(
      `This entrant already has ${has} ${has === 1 ? 'entry' : 'entries'} in this competition, the most allowed per person (${cap}).`,
      { limit: cap, current: has },
      ERROR_CODES.overCap,
    );
  }
}
