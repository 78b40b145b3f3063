// --launch (docs/swarm.md#a-queued-launch): a queued launch against a running site. The admin API
// makes a competition with a launch queue; --clients visitors (launchVisitor.ts) sign up, join
// before the opening, and once let in each holds a Lucky Dip and pays. The figures are the bench's
// (launchFigures.ts), from what the visitors saw and the public queue order; the checks are the
// swarm's invariants plus the queue's own, through the public API.
import { QUEUE_JOIN_MINUTES, type QueueOrderView, shuffledOrder } from '../../contract/launchQueue';
import { TestClient } from '../../tests/support/httpClient';
import { sleep } from './customer';
import type { PayingCustomer } from './invariants';
import {
  type LaunchFigures,
  launchFigures,
  probeViolations,
  type QueueTrace,
  serverAdmittedAt,
} from './launchFigures';
import { LaunchVisitor, PerAddressCapError, type VisitorReport, visitorTotals } from './launchVisitor';
import type { SwarmMode, SwarmRun } from './mode';
import type { SwarmOptions } from './options';
import { answerTo, RefusedError } from './preflight';
import { signUpAll } from './signUp';

const SIGN_UP_CONCURRENCY = 16;
const JOIN_CONCURRENCY = 16;
/** After the last visitor joined, the opening comes this much later. */
const OPENING_LEAD_MS = 3000;
const DAY = 86_400_000;

async function signedInAdmin(options: SwarmOptions): Promise<TestClient> {
  const admin = new TestClient(options.base);
  await admin.fetchCsrfToken();
  const login = await admin.post('/api/login', options.admin);
  if (login.status !== 200 || login.body?.twoFactorRequired)
    throw new RefusedError(
      `--launch signs in as the admin '${options.admin?.username}' to make its competition: sign-in answered ${login.status}${login.body?.twoFactorRequired ? ' (two-factor code needed)' : ''}`,
    );
  await admin.fetchCsrfToken();
  return admin;
}

async function setOpening(admin: TestClient, competitionId: number, startsAt: number) {
  const res = await admin.request('PUT', `/api/admin/competitions/${competitionId}`, {
    startsAt: new Date(startsAt).toISOString(),
  });
  if (res.status !== 200)
    throw new Error(`moving the opening answered ${res.status}: ${res.body?.message ?? ''}`);
}

/** Makes the launch's competition (opening a day off, moved once everyone signed up); its id. */
export async function createLaunchCompetition(options: SwarmOptions, runId: string): Promise<number> {
  const admin = await signedInAdmin(options);
  const res = await admin.post('/api/admin/competitions', {
    title: `Swarm launch ${runId}`,
    ticketPrice: 1,
    totalTickets: Math.max(100, options.clients * 2),
    endDate: new Date(Date.now() + 7 * DAY).toISOString(),
    details: { category: 'Cash' },
    startsAt: new Date(Date.now() + DAY).toISOString(),
    launchQueue: true,
  });
  if (res.status !== 201)
    throw new RefusedError(
      `making the launch competition answered ${res.status}: ${res.body?.message ?? ''}`,
    );
  return Number(res.body.id);
}

/** Joins everyone, a few at a time; refuses to go on when the per-address cap stops them. */
async function joinAll(visitors: LaunchVisitor[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < visitors.length) await visitors[next++]!.join();
  };
  try {
    await Promise.all(Array.from({ length: Math.min(JOIN_CONCURRENCY, visitors.length) }, worker));
  } catch (err) {
    if (!(err instanceof PerAddressCapError)) throw err;
    throw new RefusedError(
      `The site caps places in one queue per address (LAUNCH_QUEUE_PER_ADDRESS), and every visitor comes from this one: ` +
        `start the test site with LAUNCH_QUEUE_PER_ADDRESS=${visitors.length * 2} or more.`,
    );
  }
}

/** The queue's own promises, through the public API: the seed's order, admission in that order. */
export async function queueViolations(
  order: QueueOrderView,
  admittedAt: Map<number, number>,
  reports: VisitorReport[],
): Promise<string[]> {
  const violations: string[] = [];
  const early = order.entries.filter((e) => e.joinedBeforeOpening);
  const expected = await shuffledOrder(
    order.seed,
    [...early].sort((a, b) => a.entryId - b.entryId).map((e) => e.entryId),
  );
  const misplaced = expected.filter((id, i) => early.find((e) => e.entryId === id)?.position !== i + 1);
  if (misplaced.length) violations.push(`${misplaced.length} early places are not where the seed puts them`);
  let last = 0;
  let outOfOrder = 0;
  for (const e of [...order.entries].sort((a, b) => a.position - b.position)) {
    const at = admittedAt.get(e.entryId) ?? Number.POSITIVE_INFINITY;
    if (at < last) outOfOrder++;
    last = Math.max(last, at);
  }
  if (outOfOrder) violations.push(`${outOfOrder} visitors were let in before someone ahead of them`);
  violations.push(...probeViolations(reports));
  return violations;
}

export interface LaunchSwarmRun extends SwarmRun {
  launch: LaunchFigures;
}

export async function runLaunch({
  options,
  pre,
  recorder,
  pacer,
  runId,
}: SwarmMode): Promise<LaunchSwarmRun> {
  const competitionId = options.competitionId;
  let deadline = Number.POSITIVE_INFINITY;
  const visitors = Array.from(
    { length: options.clients },
    (_, i) =>
      new LaunchVisitor({
        base: options.base,
        competitionId,
        label: `swarm${runId}q${i}`,
        cardNumber: options.cardNumber,
        answer: (question) => answerTo(pre.answers, question),
        // As the bench's: the grid's fan-out to every visitor would load this one process, not the site.
        watch: false,
        probeAhead: i % 50 === 0 ? 5 * (options.admitPerSecond ?? 20) : null,
        holdTurn: () => pacer.take(pacer.session(), deadline),
      }),
  );
  const ready = await signUpAll(visitors, SIGN_UP_CONCURRENCY);
  recorder.customers = ready.length;
  const admin = await signedInAdmin(options);
  // The joining window opens QUEUE_JOIN_MINUTES (LAUNCH_QUEUE_OPENS_MINUTES) before the opening.
  await setOpening(admin, competitionId, Date.now() + (QUEUE_JOIN_MINUTES / 2) * 60_000);
  if (options.admitPerSecond !== null) {
    const rate = await admin.request('PUT', `/api/admin/competitions/${competitionId}/queue`, {
      admitPerSecond: options.admitPerSecond,
    });
    if (rate.status !== 200)
      throw new RefusedError(`setting --admit-rate answered ${rate.status}: ${rate.body?.message ?? ''}`);
  }
  await joinAll(ready);
  const startsAt = Date.now() + OPENING_LEAD_MS;
  await setOpening(admin, competitionId, startsAt);
  deadline = startsAt + options.durationSeconds * 1000;
  await sleep(Math.max(0, startsAt - Date.now()));
  recorder.begin();
  const reports = await Promise.all(visitors.map((v) => v.done(deadline)));
  const endAt = Date.now();

  for (const r of reports) {
    if (r.holdAt !== null && r.holdMs !== null && r.holdStatus === 201) {
      recorder.step('hold', r.holdAt, r.holdAt + r.holdMs);
      recorder.action('hold', [], r.holdAt);
    }
    if (r.payMs !== null && r.holdAt !== null) {
      recorder.step('pay', r.holdAt + (r.holdMs ?? 0), r.holdAt + (r.holdMs ?? 0) + r.payMs);
      recorder.action('purchase', r.paid, r.holdAt);
    }
    recorder.failedRequests += r.serverErrors;
  }
  for (const r of reports) for (const message of r.errors) recorder.error(message);

  const order = (await new TestClient(options.base).get(`/api/competitions/${competitionId}/queue/order`))
    .body as QueueOrderView;
  const byEntry = new Map(order.entries.map((e) => [e.entryId, e]));
  const admittedAt = new Map<number, number>();
  for (const r of reports)
    if (r.entryId !== null && r.expiresAt !== null && r.admittedSeenAt !== null)
      admittedAt.set(r.entryId, serverAdmittedAt(r.expiresAt, r.admittedSeenAt));
  const traces: QueueTrace[] = reports
    .filter((r) => r.entryId !== null && byEntry.has(r.entryId))
    .map((r) => ({
      position: byEntry.get(r.entryId!)!.position,
      joinedAt: r.joinedAt!,
      joinedBeforeOpening: byEntry.get(r.entryId!)!.joinedBeforeOpening,
      updates: r.updates,
      admittedSeenAt: r.admittedSeenAt,
    }));
  const violations = await queueViolations(order, admittedAt, reports);
  const launch = launchFigures({
    clients: options.clients,
    traces,
    places: order.entries.map((e) => ({
      position: e.position,
      admittedAt: admittedAt.get(e.entryId) ?? null,
    })),
    ...visitorTotals(reports),
    violations,
    endAt,
  });
  const customers: PayingCustomer[] = visitors.map((v) => ({
    label: v.report.label,
    paid: new Set(v.report.paid),
    get: (path: string) => v.client.get(path),
  }));
  return {
    customers,
    launch,
    isWatched: () => false,
    watchedNumbers: () => 0,
    finalViolations: async () => violations,
    async close() {
      for (const v of visitors) v.close();
    },
  };
}
