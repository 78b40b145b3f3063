import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { EmailTemplate, Recipient } from '../email/template';
import type { FaultInjector } from '../faults';
import { messageIdOf } from './owe';

// One owed e-mail row's life in the outbox (docs/emails.md#the-outbox): claimed with a lease, sent,
// then marked sent, or its try counted and the next one put off. The worker (worker.ts) decides
// when passes run; this module decides what one row and one pass do.

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

export interface OutboxRow {
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

const BATCH = 50;
const PARALLEL = 4;
const MAX_WAIT_MS = 3_600_000;

/** The wait after the n-th failed try: base, 2 × base, 4 × base … at most an hour. */
export const retryDelay = (attempts: number, baseMs: number) =>
  Math.min(baseMs * 2 ** Math.max(0, attempts - 1), MAX_WAIT_MS);

/** The row-level steps and one pass over the due rows, for one process's outbox. */
export function rowSender(deps: OutboxDeps, marks: ReadonlyMap<string, OnSent>) {
  const { db, logger, settings } = deps;

  /** True when this process now owns the row until `now + lease` (and counts the try). */
  const claim = async (id: number, now: number) =>
    (await db('mailOutbox')
      .where({ id, status: 'pending' })
      .andWhere((q) => q.whereNull('claimedUntil').orWhere('claimedUntil', '<', now))
      .update({ claimedUntil: now + settings.leaseMs, attempts: db.raw('?? + 1', ['attempts']) })) === 1;

  /** Our claim still stands: nobody took the row over after our lease ran out. */
  const owned = (trx: Knex, row: OutboxRow, lease: number) =>
    trx('mailOutbox').where({ id: row.id, claimedUntil: lease });

  async function markSent(row: OutboxRow, lease: number, status: 'sent' | 'suppressed') {
    const sentAt = Date.now();
    await db.transaction(async (trx) => {
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
  async function sendOne(id: number, now: number): Promise<'sent' | 'retry' | 'failed' | null> {
    if (!(await claim(id, now))) return null;
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
      await markSent(row, lease, sent.status).catch((err) =>
        // Sent but not marked: tried again after the lease, with the same Message-ID.
        logger.error({ err, outboxId: id }, 'e-mail sent but its outbox row could not be marked'),
      );
      deps.count?.('sent');
      return 'sent';
    } catch (err) {
      const result = await markTryFailed(row, lease, err, now).catch((markErr) => {
        logger.error({ err: markErr, outboxId: id }, 'could not record a failed e-mail try');
        return 'retry' as const;
      });
      deps.count?.(result);
      return result;
    }
  }

  const pass = (now: number, deadline: number) => sendDue(db, sendOne, now, deadline);

  return { sendOne, pass };
}

/** Sends the rows due at `now`, in batches, until none are left or `deadline` passes. */
async function sendDue(
  db: Knex,
  sendOne: (id: number, now: number) => Promise<'sent' | 'retry' | 'failed' | null>,
  now: number,
  deadline: number,
): Promise<DrainReport> {
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
      const results = await Promise.all(ids.slice(i, i + PARALLEL).map((id) => sendOne(id, now)));
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
