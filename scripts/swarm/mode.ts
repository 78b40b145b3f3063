// What the swarm's two modes (browserSwarm.ts, protocolSwarm.ts) are started with and hand back
// to run.ts, which starts one of them: here so that neither mode imports run.ts.
import type { PayingCustomer } from './invariants';
import type { SwarmOptions } from './options';
import type { HoldPacer } from './pacer';
import type { Preflight } from './preflight';
import type { Recorder } from './recorder';

/** What a mode (browsers, protocol) is started with. */
export interface SwarmMode {
  options: SwarmOptions;
  pre: Preflight;
  recorder: Recorder;
  pacer: HoldPacer;
  /** Makes this run's usernames unique. */
  runId: string;
}

/** What a mode hands back once its customers are done. */
export interface SwarmRun {
  customers: PayingCustomer[];
  /** Whether the watcher could see a number's cell. */
  isWatched(n: number): boolean;
  /** How many numbers (1..N) the watcher could see. */
  watchedNumbers(): number;
  /** Checks of the mode's own (the browser watcher's final grid). */
  finalViolations(): Promise<string[]>;
  close(): Promise<void>;
}
