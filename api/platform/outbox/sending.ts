import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { EmailTemplate, Recipient } from '../email/template';
import type { FaultInjector } from '../faults';
import { messageIdOf } from './owe';

// Sending one outbox row (docs/emails.md#the-outbox): claim it with a lease, render and send it
// with its Message-ID, then mark it sent, or schedule the next try, or give up into 'failed'.
// A row is claimed by a conditional UPDATE (pending, lease free or run out) and only the process
// whose UPDATE changed it sends it, so two processes never send one row at once.

export interface OutboxSettings {
  maxAttempts: number;
  retryBaseMs: number;
  leaseMs: number;
}

export type SendOutcome = { status: 'sent'; messageId: string } | { status: 'suppressed' };

/** What marks a domain's own record when its e-mail is sent (orders.confirmation_sent_at). */
export type OnSent = (trx: Knex.Transaction, subject: string, sentAt: number) => Promise<void>;

export interface OutboxDeps {
  db: Knex;
  logger: Logger;
  settings: OutboxSettings;
  /** Every template by name (api/platform/email/registry.ts): rows name theirs. */
  templates: ReadonlyMap<string, EmailTemplate<never>>;
  send: (
    template: EmailTemplate<never>,
    to: Recipient,
    props: never,
    messageId: string,
  ) => Promise<SendOutcome>;
  publicUrl: string;
  faults?: FaultInjector;
  /** Counts each try's result: sent, retry, failed. */
  count?: (result: 'sent' | 'retry' | 'failed') => void;
}

export interface DrainReport {
  sent: number;
  retried: number;
  failed: number;
}

interface OutboxRow {
  id: number;
  kind: string;
  subjectKey: string;
  userId: number | null;
  recipient: string;
  props: string | null;
  attempts: number;
  messageId: string | null;
  createdAt: number;
}

/** The worker's dependencies and the domains' marks (`Outbox.onSent`). */
export interface Sender {
  deps: OutboxDeps;
  marks: ReadonlyMap<string, OnSent>;
}

const BATCH = 50;
const PARALLEL = 4;
const MAX_WAIT_MS = 3_600_000;

/** The wait after the n-th failed try: base, 2 × base, 4 × base … at most an hour. */
export const retryDelay = (attempts: number, baseMs: number) =>
  Math.min(baseMs * 2 ** Math.max(0, attempts - 1), MAX_WAIT_MS);

/** True when this process now owns the row until `now + lease` (and counts the try). */
const claim = async ({ db, settings }: OutboxDeps, id: number, now: number) =>
  (await db('mailOutbox')
    .where({ id, status: 'pending' })
    .andWhere((q) => q.whereNull('claimedUntil').orWhere('claimedUntil', '<', now))
    .update({ claimedUntil: now + settings.leaseMs, attempts: db.raw('?? + 1', ['attempts']) })) === 1;

/** Our claim still stands: nobody took the row over after our lease ran out. */
const owned = (trx: Knex, row: OutboxRow, lease: number) =>
  trx('mailOutbox').where({ id: row.id, claimedUntil: lease });

async function markSent(
  { deps, marks }: Sender,
  row: OutboxRow,
  lease: number,
  status: 'sent' | 'suppressed',
) {
  const sentAt = Date.now();
  await deps.db.transaction(async (trx) => {
    const n = await owned(trx, row, lease).update({
      status,
      sentAt,
      claimedUntil: null,
      lastError: null,
      // What the e-mail said is in the message itself; the row keeps only who and when.
      props: null,
    });
    if (n === 1) await marks.get(row.kind)?.(trx, row.subjectKey, sentAt);
  });
}

async function markTryFailed(
  { db, logger, settings }: OutboxDeps,
  row: OutboxRow,
  lease: number,
  err: unknown,
  now: number,
): Promise<'retry' | 'failed'> {
  const attempts = Number(row.attempts);
  const lastError = String((err as Error)?.message ?? err).slice(0, 255);
  const gaveUp = attempts >= settings.maxAttempts;
  await owned(db, row, lease).update(
    gaveUp
      ? { status: 'failed', claimedUntil: null, lastError }
      : { nextAttemptAt: now + retryDelay(attempts, settings.retryBaseMs), claimedUntil: null, lastError },
  );
  const log = { err, outboxId: row.id, kind: row.kind, subject: row.subjectKey, attempts };
  if (gaveUp) logger.error(log, 'owed e-mail failed for good: marked failed in mail_outbox');
  else logger.warn(log, 'owed e-mail not sent; it is tried again later');
  return gaveUp ? 'failed' : 'retry';
}

/** Claims and sends one row; what became of it (null: another process has it). */
export async function sendOne(
  sender: Sender,
  id: number,
  now: number,
): Promise<'sent' | 'retry' | 'failed' | null> {
  const { deps } = sender;
  const { db, logger, settings } = deps;
  if (!(await claim(deps, id, now))) return null;
  const lease = now + settings.leaseMs;
  const row = (await db('mailOutbox').where({ id }).first()) as OutboxRow;
  try {
    const template = deps.templates.get(row.kind);
    if (!template) throw new Error(`no e-mail template named "${row.kind}"`);
    let { messageId } = row;
    if (!messageId) {
      messageId = messageIdOf(
        { kind: row.kind, subject: row.subjectKey },
        Number(row.createdAt),
        deps.publicUrl,
      );
      // Stored before the first send, so every later try carries the same one.
      await owned(db, row, lease).update({ messageId });
    }
    deps.faults?.fail('mail-send-fails');
    const sent = await deps.send(
      template,
      { to: row.recipient, userId: row.userId },
      JSON.parse(row.props ?? '{}') as never,
      messageId,
    );
    deps.faults?.reach('after-mail-sent');
    await markSent(sender, row, lease, sent.status).catch((err) =>
      // Sent but not marked: tried again after the lease, with the same Message-ID.
      logger.error({ err, outboxId: id }, 'e-mail sent but its outbox row could not be marked'),
    );
    deps.count?.('sent');
    return 'sent';
  } catch (err) {
    const result = await markTryFailed(deps, row, lease, err, now).catch((markErr) => {
      logger.error({ err: markErr, outboxId: id }, 'could not record a failed e-mail try');
      return 'retry' as const;
    });
    deps.count?.(result);
    return result;
  }
}

/** One pass over the rows due at `now`, each at most once, until `deadline`. */
export async function pass(sender: Sender, now: number, deadline: number): Promise<DrainReport> {
  const { db } = sender.deps;
  const report: DrainReport = { sent: 0, retried: 0, failed: 0 };
  let after = 0;
  while (Date.now() < deadline) {
    const ids = (
      (await db('mailOutbox')
        .where('status', 'pending')
        .andWhere('nextAttemptAt', '<=', now)
        .andWhere('id', '>', after)
        .andWhere((q) => q.whereNull('claimedUntil').orWhere('claimedUntil', '<', now))
        .orderBy('id')
        .limit(BATCH)
        .select('id')) as Array<{ id: number }>
    ).map((r) => Number(r.id));
    if (!ids.length) break;
    after = ids[ids.length - 1]!;
    for (let i = 0; i < ids.length; i += PARALLEL) {
      const results = await Promise.all(ids.slice(i, i + PARALLEL).map((id) => sendOne(sender, id, now)));
      for (const r of results) {
        if (r === 'sent') report.sent++;
        else if (r === 'retry') report.retried++;
        else if (r === 'failed') report.failed++;
      }
    }
    if (ids.length < BATCH) break;
  }
  return report;
}
