import type { Knex } from 'knex';
import { iso } from '../../../contract/dates';
import type { CampaignView, MarketingKind } from '../../../contract/marketing';

// The admin's Campaigns page (docs/emails.md#marketing-e-mails): each campaign, newest first, with
// how many of its e-mails have been sent (the outbox's rows marked sent), how many still wait
// (for the daily allowance, or to be sent), how many were dropped over the allowance, and how many
// customers unsubscribed with its link.

const LIMIT = 200;

export async function listCampaigns(db: Knex): Promise<CampaignView[]> {
  const campaigns = (await db('marketingCampaigns')
    .orderBy([
      { column: 'startedAt', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(LIMIT)
    .select('id', 'kind', 'competitionId', 'title', 'startedAt')) as Array<{
    id: number;
    kind: MarketingKind;
    competitionId: number;
    title: string;
    startedAt: number;
  }>;
  if (!campaigns.length) return [];
  const ids = campaigns.map((c) => Number(c.id));
  const dropped = (await db('marketingMessages')
    .whereIn('campaignId', ids)
    .where('status', 'dropped')
    .groupBy('campaignId')
    .select('campaignId')
    .count({ n: '*' })) as Array<{ campaignId: number; n: number | string }>;
  const unsubscribed = (await db('marketingUnsubscribes')
    .whereIn('campaignId', ids)
    .groupBy('campaignId')
    .select('campaignId')
    .countDistinct({ n: 'userId' })) as Array<{ campaignId: number; n: number | string }>;
  const nOf = (rows: Array<{ campaignId: number; n: number | string }>, id: number) =>
    Number(rows.find((r) => Number(r.campaignId) === id)?.n ?? 0);
  return Promise.all(
    campaigns.map(async (c) => {
      const id = Number(c.id);
      // The outbox rows of this campaign's e-mails (subject 'campaign:<id>:user:<user id>').
      const outbox = (await db('mailOutbox')
        .where('kind', c.kind)
        .andWhere('subjectKey', 'like', `campaign:${id}:user:%`)
        .groupBy('status')
        .select('status')
        .count({ n: '*' })) as Array<{ status: string; n: number | string }>;
      const byStatus = (status: string) => Number(outbox.find((r) => r.status === status)?.n ?? 0);
      return {
        id,
        kind: c.kind,
        competitionId: Number(c.competitionId),
        title: c.title,
        startedAt: iso(Number(c.startedAt)),
        sent: byStatus('sent'),
        waiting: byStatus('pending'),
        dropped: nOf(dropped, id),
        unsubscribed: nOf(unsubscribed, id),
      };
    }),
  );
}
