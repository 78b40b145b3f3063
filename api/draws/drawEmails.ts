import type { Knex } from 'knex';
import { ordinal } from '../../contract/prizes';
import { greetingOf } from '../platform/email/recipients';
import {
  type DrawProps,
  type DrawResultProps,
  drawResultEmail,
  winnerEmail,
} from '../platform/email/templates/draws';
import { type OutboxKey, type OwedMail, oweMails } from '../platform/outbox/owe';
import type { ClaimRef } from './claims/claims';
import type { DrawRecord, PrizeRecord } from './presenter';
import { mainPrizeName, markPrizeNotified, prizeLabel } from './prizes';

// The e-mails a draw owes (docs/emails.md#the-outbox): each prize's winner, and the result to every
// other entrant. They are owed in the draw's own transaction, so a crash after COMMIT cannot lose
// them, and sent after it by the outbox; a failure never undoes the draw.

const drawProps = (record: DrawRecord, name: string, prize?: PrizeRecord): DrawProps => ({
  name,
  title: record.title,
  winningNumber: Number(prize?.winningNumber ?? record.winningNumber),
  drawnAt: Number(record.drawnAt),
  verifyLink: `/competitions/${record.competitionId}#verify-draw`,
  ...(prize ? { prize: prizeLabel(record, prize) } : {}),
});

/** Where a prize's winner is e-mailed: the account's address, else the postcard's (deleted: none). */
const winnerAddress = (prize: PrizeRecord) =>
  prize.deletedAt ? null : prize.email || prize.postalEmail || null;

/**
 * The claim page; a postal winner's carries the link's token. The outbox row holds it only until the
 * e-mail is sent (its props are cleared then); the claim keeps its hash.
 */
const claimLinkOf = (claim: ClaimRef) =>
  claim.token ? `/claims/${claim.id}?token=${claim.token}` : `/claims/${claim.id}`;

/** The winner's: the prize by name, and the claim page with its deadline (docs/draws.md#7-claiming-a-prize). */
const winnerProps = (record: DrawRecord, prize: PrizeRecord, claim: ClaimRef | undefined): DrawProps => ({
  ...drawProps(record, greetingOf(prize), prize),
  prize: mainPrizeName(record.prizes.length, prize.position, prize.title),
  ...(claim ? { claimLink: claimLinkOf(claim), claimDeadline: claim.deadlineAt } : {}),
  // A postal winner has no account: the link's token opens the claim (docs/draws.md#7-claiming-a-prize).
  ...(claim?.token ? { claimByLink: true } : {}),
});

/** Every prize's number for the entrants' e-mail, when there are several. */
const allWinningNumbers = (record: DrawRecord) =>
  record.prizes.length > 1
    ? {
        allWinningNumbers: record.prizes
          .map((p) => `${ordinal(p.position)} prize #${p.winningNumber}`)
          .join(', '),
      }
    : {};

/** Each prize's winner e-mail, postal winners' included (deleted accounts get none). */
function winnerMails(record: DrawRecord, claims: ReadonlyMap<number, ClaimRef>): OwedMail<DrawProps>[] {
  return record.prizes
    .filter((prize) => winnerAddress(prize) && !prize.winnerNotifiedAt)
    .map((prize) => ({
      template: winnerEmail,
      subject: `competition:${record.competitionId}:prize:${prize.position}`,
      recipient: { to: winnerAddress(prize)!, userId: prize.winnerUserId },
      props: winnerProps(record, prize, claims.get(prize.position)),
    }));
}

/**
 * 'The draw for X has been made' to every other entrant (the winner has their own e-mail), with
 * their numbers and the link to verify the draw.
 */
async function entrantMails(trx: Knex, record: DrawRecord): Promise<OwedMail<DrawResultProps>[]> {
  const rows = (await trx('tickets as t')
    .join('users as u', 'u.id', 't.userId')
    .where({ 't.competitionId': record.competitionId, 't.status': 'sold' })
    .whereNull('u.deletedAt')
    // Every prize's winner has their own e-mail.
    .whereNotIn('u.id', [0, ...record.prizes.map((p) => p.winnerUserId ?? 0)])
    .orderBy([{ column: 'u.id' }, { column: 't.number' }])
    .select('u.id', 'u.email', 'u.firstName', 'u.username', 't.number')) as Array<{
    id: number;
    email: string;
    firstName: string | null;
    username: string;
    number: number;
  }>;
  const entrants = new Map<number, { email: string; name: string; numbers: number[] }>();
  for (const r of rows) {
    const e = entrants.get(r.id) ?? { email: r.email, name: r.firstName?.trim() || r.username, numbers: [] };
    e.numbers.push(Number(r.number));
    entrants.set(r.id, e);
  }
  return [...entrants].map(([userId, e]) => ({
    template: drawResultEmail,
    subject: `competition:${record.competitionId}:user:${userId}`,
    recipient: { to: e.email, userId },
    props: { ...drawProps(record, e.name), yourNumbers: e.numbers, ...allWinningNumbers(record) },
  }));
}

/** In the draw's transaction: owes the winners' and the entrants' e-mails. */
export async function oweDrawEmails(
  trx: Knex,
  record: DrawRecord,
  now: number,
  claims: ReadonlyMap<number, ClaimRef> = new Map(),
) {
  return {
    winners: await oweMails(trx, winnerMails(record, claims), now),
    entrants: await oweMails(trx, await entrantMails(trx, record), now),
  };
}

export type DrawMail = { winners: OutboxKey[]; entrants: OutboxKey[] };

export const WINNER = winnerEmail.name;

/** The prize's winner_notified_at, set in the transaction that marks its e-mail sent. */
export async function markWinnerNotified(trx: Knex.Transaction, subject: string, sentAt: number) {
  const [, competitionId, , position] = subject.split(':').map(Number);
  if (Number.isInteger(competitionId) && Number.isInteger(position))
    await markPrizeNotified(trx, competitionId!, position!, sentAt);
}
