import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { EmailTemplate, Recipient } from '../email/template';
import type { FaultInjector } from '../faults';
import { startPeriodicJob } from '../jobs/periodicJob';
import { messageIdOf, type OutboxKey } from './owe';

// The outbox worker (docs/emails.md#the-outbox): sends the e-mails owed in mail_outbox, each once.
//
//   pending --claimed (lease) and sent--> sent
//   pending --send failed--> pending, next try after a doubling wait --OUTBOX_MAX_ATTEMPTS--> failed
//
// A row is claimed by a conditional UPDATE (pending, lease free or run out) and only the process
// whose UPDATE changed it sends it, so two processes never send one row at once. A process that
// dies mid-send leaves the lease, and the row is tried again once it runs out, with the same
// Message-ID: the recipient's mail system sees one message.

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

export interface Outbox {
  /** After the COMMIT that owed them: sends these now, unless another process has one. Never throws. */
  deliver(keys: readonly OutboxKey[]): Promise<void>;
  /** Sends whatever is due, in the background (a draw's entrants after COMMIT). */
  kick(): void;
  /** One pass over the due rows; the worker's timer runs it, and tests call it with their own time. */
  drainOnce(now?: number): Promise<DrainReport>;
  /** Marks the domain's own record in the transaction that marks the row sent. */
  onSent(kind: string, mark: OnSent): void;
  /** Starts the timer (OUTBOX_INTERVAL_MS; 0 = none) with a pass at once. */
  start(intervalMs: number): void;
  /** Stops the timer, waits for the sends in flight, and makes one last pass (at most 5 s). */
  stop(): Promise<void>;
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

const BATCH = 50;
const PARALLEL = 4;
const MAX_WAIT_MS = 3_600_000;
const LAST_PASS_MS = 5000;

/** The wait after the n-th failed try: base, 2 × base, 4 × base … at most an hour. */
export const retryDelay = (attempts: number, baseMs: number) =>
  Math.min(baseMs * 2 ** Math.max(0, attempts - 1), MAX_WAIT_MS);

export function createOutbox(deps: OutboxDeps): Outbox {
  const { db, logger, settings } = deps;
  const marks = new Map<string, OnSent>();
  const inFlight = new Set<Promise<unknown>>();
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let stopTimer: (() => Promise<void>) | undefined;

  const track = <T>(p: Promise<T>) => {
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p)).catch(() => undefined);
    return p;
  };

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

  async function pass(now: number, deadline: number): Promise<DrainReport> {
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

  /** One pass at a time; a kick during a pass asks for one more after it. */
  function drain(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await pass(Date.now(), Number.POSITIVE_INFINITY).catch((err) =>
          logger.error({ err }, 'outbox pass failed; the next one tries again'),
        );
      } while (again && !stopped);
    })().finally(() => {
      running = undefined;
    });
    return running;
  }

  return {
    async deliver(keys) {
      if (!keys.length) return;
      await track(
        (async () => {
          for (const key of keys) {
            const row = await db('mailOutbox')
              .where({ kind: key.kind, subjectKey: key.subject, status: 'pending' })
              .first('id');
            if (row) await sendOne(Number(row.id), Date.now());
          }
        })().catch((err) =>
          logger.error({ err, keys }, 'owed e-mails not sent now; the outbox worker retries'),
        ),
      );
    },
    kick() {
      if (!stopped) void track(drain());
    },
    drainOnce: (now = Date.now()) => pass(now, Number.POSITIVE_INFINITY),
    onSent(kind, mark) {
      marks.set(kind, mark);
    },
    start(intervalMs) {
      stopTimer = startPeriodicJob(intervalMs, drain, { runNow: true });
    },
    async stop() {
      stopped = true;
      await stopTimer?.();
      await Promise.allSettled([...inFlight]);
      // What the last requests owed, as far as a few seconds allow; the rest waits for any process.
      await pass(Date.now(), Date.now() + LAST_PASS_MS).catch((err) =>
        logger.warn({ err }, 'last outbox pass at shutdown failed'),
      );
    },
  };
}
