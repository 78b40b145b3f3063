// What a swarm measures, in one place for both modes (browsers and --protocol): step latencies,
// what the customers were shown, the buyers' actions and what the watcher saw of them.

export const STEPS = ['register', 'skill', 'hold', 'checkout', 'pay'] as const;
export type Step = (typeof STEPS)[number];

/** A cell state the watcher can see; 'available' after a release. */
export type WatchedState = 'reserved' | 'sold' | 'available';
export type ActionKind = 'hold' | 'purchase' | 'release';
const TARGET: Record<ActionKind, WatchedState> = { hold: 'reserved', purchase: 'sold', release: 'available' };

export interface Percentiles {
  count: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
}

/** Nearest-rank percentiles of `values` (ms, rounded). */
export function percentiles(values: number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) =>
    sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!) : null;
  return { count: sorted.length, p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}

export interface StepSample {
  step: Step;
  /** Epoch ms of the click (or request) the step is timed from. */
  at: number;
  ms: number;
}

export interface BuyerAction {
  kind: ActionKind;
  numbers: number[];
  /** The buyer's click (hold, purchase) or, for a release, the moment the hold expired. */
  at: number;
}

export interface Staleness extends Percentiles {
  samples: number;
  /** Actions on watched numbers whose change the watcher never saw. */
  missed: number;
  byKind: Record<ActionKind, Percentiles>;
  /** Every sample (ms), for the histogram. */
  values: Array<{ kind: ActionKind; ms: number }>;
}

export class Recorder {
  /** When the customers set off (after the browsers and the watcher are up): the charts' zero. */
  startedAt = Date.now();
  readonly samples: StepSample[] = [];
  readonly actions: BuyerAction[] = [];
  readonly conflicts: number[] = [];
  readonly errors: Array<{ at: number; message: string }> = [];
  /** number -> the watcher's changes of it, in order. */
  private readonly changes = new Map<number, Array<{ state: WatchedState; at: number }>>();
  customers = 0;
  purchases = 0;
  numbersBought = 0;
  holds = 0;
  consoleErrors = 0;
  failedRequests = 0;
  /** The first few distinct failed requests, in words, to say what failed. */
  readonly failedRequestSamples: string[] = [];

  /** When no number was left to hold (epoch ms): the customers stop there. */
  soldOutAt: number | null = null;

  soldOut(): void {
    this.soldOutAt ??= Date.now();
  }

  /** False while customers sign up, true once the clock runs. */
  shopping = false;

  begin(): void {
    this.startedAt = Date.now();
    this.shopping = true;
  }

  failedRequest(what: string): void {
    this.failedRequests++;
    if (this.failedRequestSamples.length < 20 && !this.failedRequestSamples.includes(what))
      this.failedRequestSamples.push(what);
  }

  step(step: Step, at: number, end = Date.now()): void {
    this.samples.push({ step, at, ms: end - at });
  }

  action(kind: ActionKind, numbers: number[], at: number): void {
    if (kind === 'hold') this.holds++;
    if (kind === 'purchase') {
      this.purchases++;
      this.numbersBought += numbers.length;
    }
    this.actions.push({ kind, numbers, at });
  }

  conflict(at = Date.now()): void {
    this.conflicts.push(at);
  }

  error(message: string, at = Date.now()): void {
    this.errors.push({ at, message: message.split('\n')[0]!.slice(0, 300) });
  }

  watched(n: number, state: WatchedState, at: number): void {
    const list = this.changes.get(n) ?? [];
    list.push({ state, at });
    this.changes.set(n, list);
  }

  stepFigures(): Record<Step, Percentiles> {
    return Object.fromEntries(
      STEPS.map((s) => [s, percentiles(this.samples.filter((x) => x.step === s).map((x) => x.ms))]),
    ) as Record<Step, Percentiles>;
  }

  /**
   * For each action on a number the watcher could see: the time to the watcher's first change of
   * that number to the action's state after the action. `isWatched` says which numbers it saw.
   */
  staleness(isWatched: (n: number) => boolean): Staleness {
    const values: Array<{ kind: ActionKind; ms: number }> = [];
    let missed = 0;
    for (const action of this.actions) {
      for (const n of action.numbers) {
        if (!isWatched(n)) continue;
        const seen = this.changes.get(n)?.find((c) => c.state === TARGET[action.kind] && c.at >= action.at);
        if (seen) values.push({ kind: action.kind, ms: seen.at - action.at });
        else missed++;
      }
    }
    const of = (kind?: ActionKind) =>
      percentiles(values.filter((v) => !kind || v.kind === kind).map((v) => v.ms));
    const all = of();
    return {
      ...all,
      samples: all.count,
      missed,
      byKind: { hold: of('hold'), purchase: of('purchase'), release: of('release') },
      values,
    };
  }
}
