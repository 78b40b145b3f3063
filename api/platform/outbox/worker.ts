import { startPeriodicJob } from '../jobs/periodicJob';
import type { OutboxKey } from './owe';
import { type DrainReport, type OnSent, type OutboxDeps, pass, type Sender, sendOne } from './sending';

// The outbox worker (docs/emails.md#the-outbox): sends the e-mails owed in mail_outbox, each once.
//
//   pending --claimed (lease) and sent--> sent
//   pending --send failed--> pending, next try after a doubling wait --OUTBOX_MAX_ATTEMPTS--> failed
//
// A row is claimed by a conditional UPDATE (pending, lease free or run out) and only the process
// whose UPDATE changed it sends it, so two processes never send one row at once. A process that
// dies mid-send leaves the lease, and the row is tried again once it runs out, with the same
// Message-ID: the recipient's mail system sees one message.

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

/** The last pass at shutdown stops claiming rows after this long. */
const LAST_PASS_MS = 5000;

export function createOutbox(deps: OutboxDeps): Outbox {
  const { db, logger } = deps;
  const marks = new Map<string, OnSent>();
  const sender: Sender = { deps, marks };
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

  /** One pass at a time; a kick during a pass asks for one more after it. */
  function drain(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await pass(sender, Date.now(), Number.POSITIVE_INFINITY).catch((err) =>
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
            if (row) await sendOne(sender, Number(row.id), Date.now());
          }
        })().catch((err) =>
          logger.error({ err, keys }, 'owed e-mails not sent now; the outbox worker retries'),
        ),
      );
    },
    kick() {
      if (!stopped) void track(drain());
    },
    drainOnce: (now = Date.now()) => pass(sender, now, Number.POSITIVE_INFINITY),
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
      await pass(sender, Date.now(), Date.now() + LAST_PASS_MS).catch((err) =>
        logger.warn({ err }, 'last outbox pass at shutdown failed'),
      );
    },
  };
}
