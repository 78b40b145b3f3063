// The launch scenario's figures (docs/performance.md#launch-under-the-rush), pure so that the
// bench (tests/load/scenarios/launch.ts) and the swarm (--launch) compute them the same way and
// the unit tests can check them: fairness as Spearman's rank correlation, the staleness of the
// queue positions each visitor was shown, and nearest-rank percentiles.
import { percentiles } from './recorder';

/** What one visitor of a launch saw: its place, the positions it was shown, its admission. */
export interface QueueTrace {
  /** Its shuffled position (1 = first in). */
  position: number;
  /** When its POST /queue answered (epoch ms, the visitor's clock). */
  joinedAt: number;
  /** Whether the server counts it as joined before the opening (it is shuffled). */
  joinedBeforeOpening: boolean;
  /** Every `queue:position` received, in order: when (epoch ms) and the `ahead` it said. */
  updates: Array<{ at: number; ahead: number }>;
  /** When `queue:admitted` arrived; null if it never did. */
  admittedSeenAt: number | null;
}

/** The server's truth for one place: its position and when the server admitted it (null: never). */
export interface QueuePlace {
  position: number;
  admittedAt: number | null;
}

/** Ranks 1..n of `values`, ties sharing the average of their ranks. */
export function ranks(values: readonly number[]): number[] {
  const order = values.map((v, i) => ({ v, i })).sort((a, b) => a.v - b.v);
  const out = new Array<number>(values.length);
  for (let start = 0; start < order.length; ) {
    let end = start;
    while (end + 1 < order.length && order[end + 1]!.v === order[start]!.v) end++;
    const rank = (start + end) / 2 + 1;
    for (let k = start; k <= end; k++) out[order[k]!.i] = rank;
    start = end + 1;
  }
  return out;
}

/** Spearman's ρ: Pearson's correlation of the ranks (ties averaged). NaN under 2 pairs or no spread. */
export function spearman(xs: readonly number[], ys: readonly number[]): number {
  if (xs.length !== ys.length) throw new Error('spearman: the two lists differ in length');
  const n = xs.length;
  if (n < 2) return Number.NaN;
  const rx = ranks(xs);
  const ry = ranks(ys);
  const mean = (n + 1) / 2;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = rx[i]! - mean;
    const dy = ry[i]! - mean;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxx === 0 || syy === 0 ? Number.NaN : sxy / Math.sqrt(sxx * syy);
}

/** The nearest-rank percentile `p` (0-1) of `values`; null when there are none. */
export const percentile = (values: readonly number[], p: number): number | null => {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
};

/**
 * When the server admitted a visitor, from `queue:admitted`'s `expiresAt` and when it arrived:
 * expiresAt is the admission time plus LAUNCH_ADMISSION_MINUTES, a whole number of minutes, and
 * the event arrives well within half a minute, so the window is the arrival's distance rounded.
 */
export function serverAdmittedAt(expiresAt: number, receivedAt: number): number {
  const minutes = Math.max(1, Math.round((expiresAt - receivedAt) / 60_000));
  return expiresAt - minutes * 60_000;
}

/**
 * Fairness: Spearman's ρ between the order of joining and the order of admission, over the
 * visitors who joined before the opening and were admitted. The admission order is by the
 * server's admission time, then position (visitors let in by one tick share its time).
 */
export function fairness(traces: readonly QueueTrace[], places: readonly QueuePlace[]): number {
  const admittedAt = new Map(places.map((p) => [p.position, p.admittedAt]));
  const early = traces.filter((t) => t.joinedBeforeOpening && admittedAt.get(t.position) != null);
  const inOrder = [...early].sort(
    (a, b) => admittedAt.get(a.position)! - admittedAt.get(b.position)! || a.position - b.position,
  );
  const admissionOrder = new Map(inOrder.map((t, i) => [t.position, i + 1]));
  return spearman(
    early.map((t) => t.joinedAt),
    early.map((t) => admissionOrder.get(t.position)!),
  );
}

/** How many of `sorted` (ascending) are above `t`. */
function countAbove(sorted: readonly number[], t: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! <= t) lo = mid + 1;
    else hi = mid;
  }
  return sorted.length - lo;
}

/**
 * The staleness samples (ms) of the positions shown (docs/performance.md#launch-under-the-rush).
 * A visitor at position p shows `ahead = a` from one `queue:position` until the next one, or its
 * `queue:admitted`, or `endAt` (whichever comes first). At that moment the sample is how long the
 * value shown had been wrong: 0 when a is still the number of places ahead not yet admitted;
 * otherwise the time since the server admitted the place whose admission made it wrong (the
 * (p - a)th admission among the p - 1 places ahead); a value below the truth is wrong since it
 * arrived. One sample per `queue:position` received.
 */
export function stalenessSamples(
  traces: readonly QueueTrace[],
  places: readonly QueuePlace[],
  endAt: number,
): number[] {
  const byPosition = [...places].sort((a, b) => a.position - b.position);
  const samples: number[] = [];
  for (const trace of traces) {
    // Admission times of the places ahead, earliest first (never admitted: last).
    const ahead = byPosition
      .filter((p) => p.position < trace.position)
      .map((p) => p.admittedAt ?? Number.POSITIVE_INFINITY)
      .sort((a, b) => a - b);
    trace.updates.forEach((update, i) => {
      const replacedAt = Math.min(trace.updates[i + 1]?.at ?? endAt, trace.admittedSeenAt ?? endAt, endAt);
      const truth = countAbove(ahead, replacedAt);
      if (update.ahead === truth) samples.push(0);
      else if (update.ahead > truth) {
        // The truth fell below the value at the (ahead.length - a + 1)th admission (1-based).
        const wrongSince = ahead[ahead.length - update.ahead] ?? update.at;
        samples.push(Math.max(0, replacedAt - wrongSince));
      } else samples.push(Math.max(0, replacedAt - update.at));
    });
  }
  return samples;
}

/** The longest wait between consecutive queue events each visitor saw (positions, then admission). */
export function updateGaps(traces: readonly QueueTrace[]): number[] {
  const gaps: number[] = [];
  for (const t of traces) {
    const times = [...t.updates.map((u) => u.at), ...(t.admittedSeenAt === null ? [] : [t.admittedSeenAt])];
    for (let i = 1; i < times.length; i++) gaps.push(times[i]! - times[i - 1]!);
  }
  return gaps;
}

/** A hold tried while waiting must answer 403 queue_required (a 201, let in meanwhile, is judged elsewhere). */
export function probeViolations(
  reports: ReadonlyArray<{ probe: { status: number; code: string | null } | null }>,
): string[] {
  const wrong = reports.filter(
    (r) =>
      r.probe && r.probe.status !== 201 && !(r.probe.status === 403 && r.probe.code === 'queue_required'),
  );
  return wrong.length
    ? [
        `${wrong.length} holds while waiting were not refused with 403 queue_required (${wrong[0]!.probe!.status})`,
      ]
    : [];
}

/** The launch's figures, as the bench JSON and the swarm report name them. */
export interface LaunchFigures {
  clients: number;
  joined: number;
  admitted: number;
  holds: number;
  paid: number;
  holdP50: number | null;
  holdP99: number | null;
  payP99: number | null;
  stalenessP50: number | null;
  stalenessP99: number | null;
  stalenessSamples: number;
  updateGapP99: number | null;
  fairnessRho: number;
  serverErrors: number;
  /** Visitors whose journey failed or was not done by the end (not let in, not paid): not a broken promise. */
  unfinished: number;
  violations: string[];
}

export interface LaunchInput {
  clients: number;
  traces: QueueTrace[];
  places: QueuePlace[];
  holdMs: number[];
  payMs: number[];
  paid: number;
  serverErrors: number;
  unfinished: number;
  violations: string[];
  endAt: number;
}

export function launchFigures(input: LaunchInput): LaunchFigures {
  const staleness = stalenessSamples(input.traces, input.places, input.endAt);
  const stale = percentiles(staleness);
  return {
    clients: input.clients,
    joined: input.traces.length,
    admitted: input.places.filter((p) => p.admittedAt !== null).length,
    holds: input.holdMs.length,
    paid: input.paid,
    holdP50: percentile(input.holdMs, 0.5),
    holdP99: percentile(input.holdMs, 0.99),
    payP99: percentile(input.payMs, 0.99),
    stalenessP50: stale.p50,
    stalenessP99: stale.p99,
    stalenessSamples: staleness.length,
    updateGapP99: percentile(updateGaps(input.traces), 0.99),
    fairnessRho: fairness(input.traces, input.places),
    serverErrors: input.serverErrors,
    unfinished: input.unfinished,
    violations: input.violations,
  };
}
