// N headless Chromium processes, each with several isolated contexts (separate customers), plus one
// context that only watches the grid.
import { type Browser, chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium';
import { BrowserCustomer } from './browserCustomer';
import { GridWatcher } from './gridWatcher';
import type { SwarmMode, SwarmRun } from './mode';
import { dealJourneys } from './options';
import { signUpAll } from './signUp';

const SIGN_UP_CONCURRENCY = 4;

export async function runBrowsers({ options, pre, recorder, pacer, runId }: SwarmMode): Promise<SwarmRun> {
  const browsers: Browser[] = await Promise.all(
    Array.from({ length: options.browsers }, () =>
      chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS }),
    ),
  );
  const watcher = new GridWatcher(
    options.base,
    options.competitionId,
    pre.competition.totalTickets,
    recorder,
  );
  const watching = watcher.start(browsers[0]!);
  const journeys = dealJourneys(options.mix, options.browsers * options.pagesPerBrowser);
  const setup = {
    base: options.base,
    competitionId: options.competitionId,
    cap: pre.competition.maxTicketsPerUser,
    answers: pre.answers,
    cardNumber: options.cardNumber,
    recorder,
    pacer,
  };
  const customers = await Promise.all(
    journeys.map(
      async (journey, i) =>
        new BrowserCustomer(
          `swarm${runId}c${i}`,
          await browsers[i % browsers.length]!.newContext(),
          journey,
          setup,
        ),
    ),
  );
  // Sign-up first (a password hash each, the slow part on a small machine), then the clock starts.
  const [ready] = await Promise.all([signUpAll(customers, SIGN_UP_CONCURRENCY), watching]);
  recorder.begin();
  const deadline = Date.now() + options.durationSeconds * 1000;
  await Promise.all(ready.map((c) => c.shop(deadline)));

  return {
    customers,
    isWatched: watcher.isWatched,
    watchedNumbers: () => watcher.watchedUpTo,
    /** The watcher's grid must show every number the swarm bought as sold, once the last events land. */
    async finalViolations() {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const bought = customers.flatMap((c) => [...c.paid]);
      const stale = await watcher.notShownSold(bought);
      return stale.length
        ? [`The watcher's grid does not show bought number(s) ${stale.slice(0, 20).join(', ')} as sold`]
        : [];
    },
    async close() {
      await Promise.all(browsers.map((b) => b.close()));
    },
  };
}
