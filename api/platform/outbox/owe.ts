import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { EmailTemplate, Recipient } from '../email/template';

// Owing an e-mail (docs/emails.md#the-outbox): one mail_outbox row, written in the transaction of
// the fact it reports, so the e-mail exists exactly when the fact does. Rendering waits for the
// send: the transaction stays short (a draw owes an e-mail to every entrant) and only plain props
// are stored, frozen as the fact was at COMMIT.

/** Names one owed e-mail: its template and what it is about ('order:12'). Unique in mail_outbox. */
export interface OutboxKey {
  kind: string;
  subject: string;
}

export interface OwedMail<P> {
  template: EmailTemplate<P>;
  /** What the e-mail is about, e.g. 'order:12' or 'competition:3:user:7': one e-mail per subject. */
  subject: string;
  recipient: Recipient;
  props: P;
  /** Not sent before this time (epoch ms): a marketing e-mail waiting for the customer's daily allowance. */
  notBefore?: number;
}

/** Dates become epoch ms, which the templates' date helpers take as well. */
function propsJson(props: unknown): string {
  return JSON.stringify(props, function (this: Record<string, unknown>, key, value) {
    const raw = this[key];
    return raw instanceof Date ? raw.getTime() : value;
  });
}

/**
 * The Message-ID every try of this e-mail carries (stored at its first try): the kind and a hash of
 * the subject and the time the row was written (so a rebuilt database never reuses one, and the
 * header shows no account or order ids), at the site's host.
 */
export function messageIdOf(key: OutboxKey, firstOwedAt: number, publicUrl: string): string {
  const host = new URL(publicUrl).hostname || 'localhost';
  const hash = createHash('sha256').update(`${key.subject}\n${firstOwedAt}`).digest('hex').slice(0, 24);
  return `<${key.kind.replace(/[^A-Za-z0-9-]/g, '-')}.${hash}@${host}>`;
}

const rowOf = <P>(mail: OwedMail<P>, now: number) => ({
  kind: mail.template.name,
  subjectKey: mail.subject,
  userId: mail.recipient.userId ?? null,
  recipient: mail.recipient.to.slice(0, 254),
  props: propsJson(mail.props),
  status: 'pending',
  attempts: 0,
  nextAttemptAt: Math.max(now, mail.notBefore ?? now),
  createdAt: now,
});

/** Rows per INSERT when a draw owes an e-mail to each of thousands of entrants. */
const CHUNK = 200;

/**
 * Writes the owed e-mails in `trx`. Owing the same key again (a retried transaction, a repeated
 * webhook) writes nothing: UNIQUE (kind, subject_key) keeps the first. Returns the keys, for
 * `Outbox.deliver` after COMMIT.
 */
export async function oweMails<P>(
  trx: Knex,
  mails: readonly OwedMail<P>[],
  now = Date.now(),
): Promise<OutboxKey[]> {
  for (let i = 0; i < mails.length; i += CHUNK) {
    await trx('mailOutbox')
      .insert(mails.slice(i, i + CHUNK).map((m) => rowOf(m, now)))
      .onConflict(['kind', 'subjectKey'])
      .ignore();
  }
  return mails.map((m) => ({ kind: m.template.name, subject: m.subject }));
}

/** One owed e-mail: `oweMails` of one. */
export async function oweMail<P>(trx: Knex, mail: OwedMail<P>, now = Date.now()): Promise<OutboxKey> {
  const [key] = await oweMails(trx, [mail], now);
  return key!;
}

/**
 * An account is deleted: its owed e-mails are not sent, and the address and props its sent ones
 * kept go (docs/security.md#e-mail). The mail log keeps the record of what was sent.
 */
export async function forgetMailOf(trx: Knex, userId: number): Promise<void> {
  await trx('mailOutbox').where({ userId }).delete();
}
