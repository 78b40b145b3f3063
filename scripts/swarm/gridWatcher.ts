// The context that only watches: the competition page's ticket grid, every cell's state change
// timed as it lands in the DOM. The grid is virtualised; the watcher makes its box tall enough to
// render (up to MAX_GRID_PX of rows) every cell, and says which numbers it could see.
import type { Browser, BrowserContext, Page } from '@playwright/test';
import type { Recorder, WatchedState } from './recorder';

const MAX_GRID_PX = 12_000;
/** A loaded machine can take a while to render the first page. */
const LOAD_TIMEOUT_MS = 90_000;
const STATES: Record<string, WatchedState> = {
  available: 'available',
  reserved: 'reserved',
  purchased: 'sold',
};

const OBSERVE_GRID = `(() => {
  const grid = document.querySelector('[data-testid="entries-grid"]');
  new MutationObserver((mutations) => {
    const at = Date.now();
    const batch = [];
    for (const m of mutations) {
      const n = Number(m.target.getAttribute('data-number'));
      if (n) batch.push([n, m.target.getAttribute('data-state'), at]);
    }
    if (batch.length) window.__swarmCells(batch);
  }).observe(grid, { attributes: true, attributeFilter: ['data-state'], subtree: true });
})()`;

export class GridWatcher {
  private context!: BrowserContext;
  private page!: Page;
  /** The highest number the grid rendered: cells 1..watchedUpTo were watched. */
  watchedUpTo = 0;

  constructor(
    private readonly base: string,
    private readonly competitionId: number,
    private readonly totalTickets: number,
    private readonly recorder: Recorder,
  ) {}

  async start(browser: Browser): Promise<void> {
    this.context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    this.page = await this.context.newPage();
    await this.page.exposeBinding('__swarmCells', (_source, batch: Array<[number, string, number]>) => {
      for (const [n, state, at] of batch) {
        const watched = STATES[state];
        if (watched) this.recorder.watched(n, watched, at);
      }
    });
    await this.page.goto(`${this.base}/competition/${this.competitionId}`, { timeout: LOAD_TIMEOUT_MS });
    // 40 px rows of at least 8 cells: tall enough for every row, within the cap.
    const height = Math.min(MAX_GRID_PX, Math.ceil(this.totalTickets / 8) * 40 + 40);
    await this.page.addStyleTag({
      content: `[data-testid="entries-grid"] { height: ${height}px !important; }`,
    });
    const grid = this.page.getByTestId('entries-grid');
    // The grid renders its rows only once it is near the viewport (VirtualNumberGrid).
    await grid.scrollIntoViewIfNeeded({ timeout: LOAD_TIMEOUT_MS });
    await grid.locator('[data-number="1"]').waitFor({ state: 'attached', timeout: LOAD_TIMEOUT_MS });
    await this.page.waitForTimeout(1500); // the live snapshot lands first: not a buyer's change
    this.watchedUpTo = await this.lastRendered();
    await this.page.evaluate(OBSERVE_GRID);
  }

  private lastRendered(): Promise<number> {
    return this.page.evaluate(() =>
      Math.max(
        0,
        ...[...document.querySelectorAll('[data-testid="entries-grid"] [data-number]')].map((el) =>
          Number(el.getAttribute('data-number')),
        ),
      ),
    );
  }

  isWatched = (n: number): boolean => n <= this.watchedUpTo;

  /** The watched numbers among `numbers` whose cell does not (yet) show them sold. */
  async notShownSold(numbers: number[]): Promise<number[]> {
    const watched = numbers.filter(this.isWatched);
    return this.page.evaluate(
      (list) =>
        list.filter(
          (n) =>
            document
              .querySelector(`[data-testid="entries-grid"] [data-number="${n}"]`)
              ?.getAttribute('data-state') !== 'purchased',
        ),
      watched,
    );
  }

  async stop(): Promise<void> {
    await this.context.close();
  }
}
