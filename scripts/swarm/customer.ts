// What every swarm customer shares, browser or protocol: what it paid for and holds, its hold
// budget, and the loop of journeys until the run ends.
import { type JsonAnswer, nothingLeft, type PayingCustomer } from './invariants';
import type { Journey } from './options';
import type { HoldPacer, SlidingWindow } from './pacer';
import type { Recorder } from './recorder';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export abstract class SwarmCustomer implements PayingCustomer {
  readonly paid = new Set<number>();
  protected readonly held = new Set<number>();
  /** This customer's own (per-session) hold budget. */
  protected readonly session: SlidingWindow | null;
  /** When the run ends (set by shop()). */
  protected deadline = 0;

  constructor(
    readonly label: string,
    protected readonly journey: Journey,
    protected readonly recorder: Recorder,
    protected readonly pacer: HoldPacer,
    protected readonly competitionId: number,
    /** The competition's per-person cap. */
    protected readonly cap: number,
  ) {
    this.session = pacer.session();
  }

  abstract get(path: string): Promise<JsonAnswer>;
  /** One journey: a hold and its payment, or a hold left to expire. */
  protected abstract journeyOnce(): Promise<unknown>;

  /**
   * Runs journeys until the deadline, the per-person cap, or nothing left to hold. A failed
   * journey is recorded (not thrown) and the customer goes on; one cut short by the end of the run,
   * or failing because the competition sold out, is not an error.
   */
  async shop(deadline: number): Promise<void> {
    this.deadline = deadline;
    while (
      Date.now() < deadline &&
      this.recorder.soldOutAt === null &&
      this.paid.size + this.held.size < this.cap
    ) {
      try {
        await this.journeyOnce();
      } catch (err) {
        if (Date.now() >= deadline) break;
        if (await nothingLeft((path) => this.get(path), this.competitionId)) {
          this.recorder.soldOut();
          break;
        }
        this.recorder.error(`${this.label} ${this.journey}: ${(err as Error).message}`);
        await sleep(1000);
      }
    }
  }
}
