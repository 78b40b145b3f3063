import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { MarketingKind } from '../../../contract/marketing';
import { isUniqueViolation } from '../../../db/dialect';
import type { Config } from '../../platform/config';
import {
  endingSoonEmail,
  type MarketingProps,
  newCompetitionEmail,
} from '../../platform/email/templates/marketing';
import type { EventBus } from '../../platform/events';
import { startPeriodicJob } from '../../platform/jobs/periodicJob';
import type { Mailer } from '../../platform/mailer';
import { type OutboxKey, type OwedMail, oweMails } from '../../platform/outbox/owe';
import { endingSoonRecipients, type MarketingRecipient, newCompetitionRecipients } from './audience';
import { signUnsubscribeToken } from './unsubscribeTokens';

// The marketing campaigns (docs/emails.md#marketing-e-mails): 'Ending soon' ENDING_SOON_NOTICE_MINUTES
// before a competition closes, to the opted-in customers who entered or watch it; 'New competition
// live' when one opens, to every opted-in customer. One campaign per kind and competition (a
// unique key), its e-mails owed through the outbox in the campaign's transaction. A customer gets
// at most MARKETING_EMAILS_PER_DAY marketing e-mails in any 24 hours: one over the allowance waits
// for it (the outbox row is due then), or is dropped when the competition would close first; the
// mail log records each wait and drop.

export interface MarketingDeps {
  db: Knex;
  mailer: Mailer;
  logger: Logger;
  config: Pick<Config, 'marketing' | 'sessionSecret'>;
  /** Hears `competition.endingSoon` once each ending-soon campaign is made (the web push's cue). */
  events?: EventBus;
}

export interface CampaignOutcome {
  campaignId: number;
  kind: MarketingKind;
  competitionId: number;
  owed: number;
  waiting: number;
  dropped: number;
}

interface CompetitionFacts {
  id: number;
  title: string;
  endDate: number;
  ticketPricePence: number;
  status: string;
}

const DAY_MS = 86_400_000;
const CHUNK = 500;
const DELIVER_AT_ONCE = 50;
const TEMPLATES = { 'ending-soon': endingSoonEmail, 'new-competition': newCompetitionEmail } as const;

/** Each recipient's marketing e-mails going or gone in the last 24 hours and later, oldest first. */
async function recentSends(trx: Knex, userIds: number[], now: number): Promise<Map<number, number[]>> {
  const sends = new Map<number, number[]>();
  for (let i = 0; i < userIds.length; i += CHUNK) {
    const rows = (await trx('marketingMessages')
      .whereIn('userId', userIds.slice(i, i + CHUNK))
      .whereIn('status', ['owed', 'waiting'])
      .andWhere('sendAt', '>', now - DAY_MS)
      .orderBy('sendAt')
      .select('userId', 'sendAt')) as Array<{ userId: number; sendAt: number }>;
    for (const r of rows)
      sends.set(Number(r.userId), [...(sends.get(Number(r.userId)) ?? []), Number(r.sendAt)]);
  }
  return sends;
}

/** When this customer's next marketing e-mail may go: now, or once the oldest in the window is a day old. */
export function nextAllowedAt(times: readonly number[], perDay: number, now: number): number {
  if (times.length < perDay) return now;
  return Math.max(now, times[times.length - perDay]! + DAY_MS);
}

/** Claims the campaign (one per kind and competition); null when it has been made already. */
async function claimCampaign(trx: Knex, kind: MarketingKind, c: CompetitionFacts, now: number) {
  if (await trx('marketingCampaigns').where({ kind, competitionId: c.id }).first('id')) return null;
  try {
    const [id] = await trx('marketingCampaigns').insert({
      kind,
      competitionId: c.id,
      title: c.title.slice(0, 255),
      startedAt: now,
    });
    return Number(id);
  } catch (err) {
    if (isUniqueViolation(err)) return null;
    throw err;
  }
}

type Decision = { r: MarketingRecipient; status: 'owed' | 'waiting' | 'dropped'; sendAt: number };

function decide(
  recipients: MarketingRecipient[],
  sends: Map<number, number[]>,
  perDay: number,
  closesAt: number,
  now: number,
) {
  return recipients.map((r): Decision => {
    const sendAt = nextAllowedAt(sends.get(r.userId) ?? [], perDay, now);
    if (sendAt >= closesAt) return { r, status: 'dropped', sendAt };
    return { r, status: sendAt > now ? 'waiting' : 'owed', sendAt };
  });
}

/** One campaign in one transaction: the campaign row, each customer's message and owed e-mail, the mail log's waits and drops. */
async function runCampaign(
  deps: MarketingDeps,
  kind: MarketingKind,
  c: CompetitionFacts,
  recipients: MarketingRecipient[],
  now: number,
): Promise<CampaignOutcome | null> {
  const template = TEMPLATES[kind];
  const { emailsPerDay } = deps.config.marketing;
  let dueNow: OutboxKey[] = [];
  const outcome = await deps.db.transaction(async (trx) => {
    const campaignId = await claimCampaign(trx, kind, c, now);
    if (campaignId === null) return null;
    const sends = await recentSends(
      trx,
      recipients.map((r) => r.userId),
      now,
    );
    const decisions = decide(recipients, sends, emailsPerDay, Number(c.endDate), now);
    const propsOf = (r: MarketingRecipient): MarketingProps => ({
      name: r.name,
      title: c.title,
      competitionLink: `/competitions/${c.id}`,
      endDate: Number(c.endDate),
      ticketPricePence: Number(c.ticketPricePence),
      unsubscribeLink: `/api/unsubscribe?token=${signUnsubscribeToken(deps.config.sessionSecret, { userId: r.userId, kind, campaignId })}`,
    });
    for (let i = 0; i < decisions.length; i += CHUNK) {
      await trx('marketingMessages').insert(
        decisions.slice(i, i + CHUNK).map((d) => ({
          campaignId,
          userId: d.r.userId,
          status: d.status,
          sendAt: d.status === 'dropped' ? null : d.sendAt,
          createdAt: now,
        })),
      );
    }
    const mails = decisions
      .filter((d) => d.status !== 'dropped')
      .map(
        (d): OwedMail<MarketingProps> => ({
          template,
          subject: `campaign:${campaignId}:user:${d.r.userId}`,
          recipient: { to: d.r.email, userId: d.r.userId },
          props: propsOf(d.r),
          notBefore: d.sendAt,
        }),
      );
    const keys = await oweMails(trx, mails, now);
    dueNow = keys.filter((_, i) => mails[i]!.notBefore! <= now);
    await logHeldBack(
      trx,
      deps,
      decisions.filter((d) => d.status !== 'owed'),
      propsOf,
      template,
      now,
    );
    return {
      campaignId,
      kind,
      competitionId: c.id,
      owed: decisions.filter((d) => d.status === 'owed').length,
      waiting: decisions.filter((d) => d.status === 'waiting').length,
      dropped: decisions.filter((d) => d.status === 'dropped').length,
    };
  });
  if (outcome) {
    deps.logger.info(outcome, 'marketing campaign owed');
    // A few at once; a big audience in the outbox worker's background pass, as a draw's entrants.
    if (dueNow.length <= DELIVER_AT_ONCE) await deps.mailer.outbox.deliver(dueNow);
    else deps.mailer.outbox.kick();
  }
  return outcome;
}

/** The mail log says which e-mails wait for the daily allowance (and until when) and which were dropped. */
async function logHeldBack(
  trx: Knex,
  deps: MarketingDeps,
  held: Decision[],
  propsOf: (r: MarketingRecipient) => MarketingProps,
  template: (typeof TEMPLATES)[MarketingKind],
  now: number,
) {
  const rows = held.map((d) => ({
    userId: d.r.userId,
    recipient: d.r.email.slice(0, 254),
    subject: template.subject(propsOf(d.r), deps.mailer.brand).slice(0, 255),
    template: template.name,
    status: d.status,
    error:
      d.status === 'waiting'
        ? `Over the daily allowance of marketing e-mails: waits until ${new Date(d.sendAt).toISOString()}`
        : 'Over the daily allowance of marketing e-mails, and the competition closes first: dropped',
    createdAt: now,
  }));
  for (let i = 0; i < rows.length; i += CHUNK) await trx('mailLog').insert(rows.slice(i, i + CHUNK));
}

const factsOf = (db: Knex, competitionId: number) =>
  db('competitions')
    .where('id', competitionId)
    .first('id', 'title', 'endDate', 'ticketPricePence', 'status') as Promise<CompetitionFacts | undefined>;

/**
 * 'New competition live': call when a competition opens (an admin creates or activates it, or a
 * scheduled launch starts it). Once per competition; null when it is not open or was announced.
 */
export async function announceCompetitionOpened(
  deps: MarketingDeps,
  competitionId: number,
  now = Date.now(),
): Promise<CampaignOutcome | null> {
  const c = await factsOf(deps.db, competitionId);
  if (c?.status !== 'active' || Number(c.endDate) <= now) return null;
  return runCampaign(deps, 'new-competition', c, await newCompetitionRecipients(deps.db, now), now);
}

/**
 * One pass of the ending-soon job: every open competition closing within ENDING_SOON_NOTICE_MINUTES
 * of `now` that has had no ending-soon campaign gets one.
 */
export async function runEndingSoonJob(deps: MarketingDeps, now = Date.now()): Promise<CampaignOutcome[]> {
  const due = (await deps
    .db('competitions')
    .where('status', 'active')
    .andWhere('endDate', '>', now)
    .andWhere('endDate', '<=', now + deps.config.marketing.endingSoonNoticeMs)
    .whereNotExists(
      deps
        .db('marketingCampaigns')
        .select('marketingCampaigns.id')
        .where('marketingCampaigns.kind', 'ending-soon')
        .andWhere('marketingCampaigns.competitionId', deps.db.ref('competitions.id')),
    )
    .orderBy('endDate')
    .select('id', 'title', 'endDate', 'ticketPricePence', 'status')) as CompetitionFacts[];
  const outcomes: CampaignOutcome[] = [];
  for (const c of due) {
    const done = await runCampaign(
      deps,
      'ending-soon',
      c,
      await endingSoonRecipients(deps.db, c.id, now),
      now,
    );
    if (!done) continue;
    outcomes.push(done);
    deps.events?.publish('competition.endingSoon', { competitionId: c.id, campaignId: done.campaignId });
  }
  return outcomes;
}

/** The job's timer: every `intervalMs` (30 s in production, so a notice goes within a minute); 0 = off. */
export function startEndingSoonJob(deps: MarketingDeps, intervalMs: number): () => Promise<void> {
  return startPeriodicJob(intervalMs, async () => {
    await runEndingSoonJob(deps).catch((err) =>
      deps.logger.error({ err }, 'ending-soon job failed; it runs again'),
    );
  });
}

/** Who the ending-soon notice reaches (the web push of it reuses this audience). */
export { endingSoonRecipients } from './audience';
