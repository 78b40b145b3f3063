import type { Knex } from 'knex';
import { marketingAudience } from '../../platform/email/consent';

// Who a marketing message may reach (docs/emails.md#marketing-e-mails): the customers the mailer's
// guard lets through (live, confirmed address, opted in, not on a break), narrowed per message.
// `endingSoonRecipients` is also the audience of the ending-soon web push.

export interface MarketingRecipient {
  userId: number;
  email: string;
  name: string;
}

interface Row {
  id: number;
  email: string;
  firstName: string | null;
  username: string;
}

const recipientsOf = (rows: Row[]): MarketingRecipient[] =>
  rows.map((r) => ({ userId: Number(r.id), email: r.email, name: r.firstName?.trim() || r.username }));

const COLUMNS = ['users.id', 'users.email', 'users.firstName', 'users.username'];

/**
 * The customers to tell that a competition is ending soon: opted in, confirmed, not on a break,
 * and either holding a sold ticket in it or watching it. Each once, by account id.
 */
export async function endingSoonRecipients(
  db: Knex,
  competitionId: number,
  now = Date.now(),
): Promise<MarketingRecipient[]> {
  const entered = db('tickets')
    .select('tickets.userId')
    .where({ 'tickets.competitionId': competitionId, 'tickets.status': 'sold' })
    .whereNotNull('tickets.userId');
  const watching = db('watchlist').select('watchlist.userId').where('watchlist.competitionId', competitionId);
  const rows = (await marketingAudience(db, now)
    .andWhere((q) => q.whereIn('users.id', entered).orWhereIn('users.id', watching))
    .orderBy('users.id')
    .select(COLUMNS)) as Row[];
  return recipientsOf(rows);
}

/** The customers to tell that a competition is live: everyone opted in, confirmed and not on a break. */
export async function newCompetitionRecipients(db: Knex, now = Date.now()): Promise<MarketingRecipient[]> {
  const rows = (await marketingAudience(db, now).orderBy('users.id').select(COLUMNS)) as Row[];
  return recipientsOf(rows);
}
