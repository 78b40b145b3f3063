// Keeps the swarm's holds within the site's per-minute hold limits (GET /api/limits): every
// customer comes from this machine's one address, so they share the per-address budget, spread
// evenly over the minute (a burst then a minute's silence would measure nothing useful); each
// customer has its own per-session budget, a sliding window of its last minute's holds.

const WINDOW_MS = 60_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Budget {
  /** Milliseconds until one more hold fits (0 = now). */
  waitFor(now: number): number;
  take(now: number): void;
}

/** At most `perMinute` holds in any minute, one every 60 s / perMinute. */
export class EvenPace implements Budget {
  private next = 0;
  constructor(private readonly perMinute: number) {}

  waitFor(now: number): number {
    return Math.max(0, this.next - now);
  }

  take(now: number): void {
    this.next = Math.max(now, this.next) + WINDOW_MS / this.perMinute;
  }
}

export class SlidingWindow implements Budget {
  private readonly times: number[] = [];
  constructor(private readonly perMinute: number) {}

  waitFor(now: number): number {
    while (this.times.length && this.times[0]! <= now - WINDOW_MS) this.times.shift();
    return this.times.length < this.perMinute ? 0 : this.times[0]! + WINDOW_MS - now;
  }

  take(now: number): void {
    this.times.push(now);
  }
}

export class HoldPacer {
  private readonly address: Budget | null;
  /** The time holds have spent waiting for the budget, summed (shown in the report). */
  waitedMs = 0;

  /** `null` limits: the site's request limits are off. */
  constructor(private readonly limits: { perSession: number; perAddress: number } | null) {
    this.address = limits ? new EvenPace(limits.perAddress) : null;
  }

  /** A window for one customer's session. */
  session(): SlidingWindow | null {
    return this.limits ? new SlidingWindow(this.limits.perSession) : null;
  }

  /**
   * Resolves true when one more hold fits both budgets, and counts it; false (at the deadline)
   * when it would not fit before the run ends.
   */
  async take(session: SlidingWindow | null, deadline: number): Promise<boolean> {
    for (;;) {
      const now = Date.now();
      const wait = Math.ceil(Math.max(this.address?.waitFor(now) ?? 0, session?.waitFor(now) ?? 0));
      if (wait === 0) {
        this.address?.take(now);
        session?.take(now);
        return true;
      }
      if (now + wait >= deadline) {
        await sleep(Math.max(0, deadline - now));
        return false;
      }
      this.waitedMs += wait;
      await sleep(wait);
    }
  }
}
