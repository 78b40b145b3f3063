// The browser grid benchmark: a visitor's Chromium on the 100,000-number demo competition with the
// number selector open, while buyers hold and release numbers in view through the real API (each
// hold and each release is one ticket event pushed to the page), 100 events/s for 10 s.
//
// Measured in the page (an init script, before the app loads):
// - long tasks: a PerformanceObserver for 'longtask' (Chromium reports tasks over 50 ms);
// - the work per update batch: the main-thread time spent, within one animation frame, on the
//   Socket.IO frames carrying ticket events (the store applying them) and on the animation-frame
//   callbacks that follow (the store publishing once per frame and React rendering, committing
//   and running effects, which it does for a zustand update in a microtask of the same task).
//   Each task is timed from its start to a microtask queued after its own;
// - DOM nodes: document.querySelectorAll('*').length at the end, selector still open.
import type { Browser } from '@playwright/test';
import { TestClient } from '../../support/httpClient';

export interface GridRun {
  longTasksOver50: number;
  longestTaskMs: number;
  batches: number;
  eventsPerSecond: number;
  updateP50Ms: number;
  updateP95Ms: number;
  updateMaxMs: number;
  domNodes: number;
}

const BUYERS = 25;
const CYCLES_PER_SECOND = 50; // a hold and its release: 100 events/s
const SECONDS = 10;

interface PageStats {
  longTasks: number[];
  batches: number[];
  frames: number;
}

declare global {
  interface Window {
    __gridBench: PageStats;
  }
}

/**
 * Installed before the app's scripts: the long-task observer and the timing of ticket-event frames.
 * Plain JavaScript in a string: tsx's transform of a function would call helpers the page lacks.
 */
const INSTRUMENT = `(() => {
  const stats = { longTasks: [], batches: [], frames: 0 };
  window.__gridBench = stats;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) stats.longTasks.push(entry.duration);
  }).observe({ type: 'longtask', buffered: true });
  const raf = window.requestAnimationFrame.bind(window);
  let open = false; // a batch has ticket work not yet closed
  let work = 0;
  const close = () => {
    stats.batches.push(work);
    work = 0;
    open = false;
  };
  // A task's own work: its callback and the microtasks it queued (React renders a store update in
  // a microtask), measured by a microtask queued after them.
  const timed = (handler, isTicketWork) =>
    function (...args) {
      const started = performance.now();
      const result = handler.apply(this, args);
      const ticket = isTicketWork(args[0]);
      if (ticket) stats.frames++;
      if (ticket || open)
        queueMicrotask(() => {
          work += performance.now() - started;
          if (!open) {
            open = true;
            raf(close); // after the frame's other callbacks, which were registered first
          }
        });
      return result;
    };
  const isTicketFrame = (ev) => typeof ev.data === 'string' && ev.data.includes('"tickets:');
  window.requestAnimationFrame = (cb) => raf(timed(cb, () => false));
  const proto = WebSocket.prototype;
  const onmessage = Object.getOwnPropertyDescriptor(proto, 'onmessage');
  Object.defineProperty(proto, 'onmessage', {
    ...onmessage,
    set(handler) {
      onmessage.set.call(this, typeof handler === 'function' ? timed(handler, isTicketFrame) : handler);
    },
  });
  const addEventListener = proto.addEventListener;
  proto.addEventListener = function (type, listener, options) {
    const wrapped =
      type === 'message' && typeof listener === 'function' ? timed(listener, isTicketFrame) : listener;
    return addEventListener.call(this, type, wrapped, options);
  };
})();`;

const pct = (values: number[], p: number) => {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * p) - 1)]!;
};
const round1 = (n: number) => Math.round(n * 10) / 10;

/** Buyers with sessions that answered the skill question, each with numbers of its own to cycle. */
async function buyers(url: string, competitionId: number, numbers: number[]) {
  return Promise.all(
    Array.from({ length: BUYERS }, async (_, i) => {
      const client = new TestClient(url);
      await client.fetchCsrfToken();
      const answer = await client.post(`/api/competitions/${competitionId}/skill-answer`, { answer: '365' });
      if (answer.status !== 200) throw new Error(`skill-answer: ${answer.status} ${answer.text}`);
      return { client, numbers: numbers.filter((_, k) => k % BUYERS === i) };
    }),
  );
}

/** Holds and releases at CYCLES_PER_SECOND for SECONDS; returns the cycles that completed. */
async function drive(competitionId: number, team: Awaited<ReturnType<typeof buyers>>) {
  const interval = 1000 / CYCLES_PER_SECOND;
  const started = Date.now();
  const total = CYCLES_PER_SECOND * SECONDS;
  let done = 0;
  let failed = 0;
  const busy = new Set<number>();
  const inFlight: Promise<void>[] = [];
  for (let cycle = 0; cycle < total; cycle++) {
    const wait = started + cycle * interval - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const b = cycle % BUYERS;
    if (busy.has(b)) continue; // this buyer's last cycle is still going: the server is saturated
    busy.add(b);
    const { client, numbers } = team[b]!;
    const n = numbers[Math.floor(cycle / BUYERS) % numbers.length]!;
    inFlight.push(
      (async () => {
        const hold = await client.post('/api/cart', { competitionId, quantity: 1, selectedNumbers: [n] });
        if (hold.status === 201) {
          const release = await client.request('DELETE', `/api/cart/${hold.body.id}`);
          if (release.status < 300) done++;
          else failed++;
        } else failed++;
        busy.delete(b);
      })(),
    );
  }
  await Promise.all(inFlight);
  return { done, failed, seconds: (Date.now() - started) / 1000 };
}

export async function gridOnce(browser: Browser, url: string): Promise<GridRun> {
  const list: Array<{ id: number; totalTickets: number }> = await (
    await fetch(`${url}/api/competitions`)
  ).json();
  const big = list.find((c) => c.totalTickets === 100_000);
  if (!big) throw new Error('The demo data has no 100,000-number competition');
  // Numbers in view at the top of the grid that nobody has bought.
  const available: number[] = await (
    await fetch(`${url}/api/competitions/${big.id}/available-tickets`)
  ).json();
  const team = await buyers(url, big.id, available.slice(0, 100));

  const context = await browser.newContext({ baseURL: url, viewport: { width: 1280, height: 800 } });
  await context.addInitScript({ content: INSTRUMENT });
  const page = await context.newPage();
  try {
    await page.goto(`/competition/${big.id}`);
    await page.getByRole('button', { name: 'Select Lucky Numbers' }).click();
    const skill = page.getByTestId('skill-dialog');
    await skill.getByLabel('365').check();
    await skill.getByRole('button', { name: 'Submit Answer' }).click();
    await page.getByTestId('selector-grid').locator('[data-number="1"]').waitFor();
    await page.waitForTimeout(1000);
    // Only what happens under the events counts, not the page load.
    await page.evaluate(() => {
      window.__gridBench.longTasks = [];
      window.__gridBench.batches = [];
      window.__gridBench.frames = 0;
    });
    const driven = await drive(big.id, team);
    await page.waitForTimeout(1500);
    const stats = await page.evaluate(() => window.__gridBench);
    const domNodes = await page.evaluate(() => document.querySelectorAll('*').length);
    if (driven.failed > 0) throw new Error(`${driven.failed} holds or releases failed`);
    // Every hold and release pushed a ticket event; none reaching the page would measure nothing.
    if (stats.frames === 0) throw new Error('No ticket events reached the page');
    return {
      longTasksOver50: stats.longTasks.filter((d) => d > 50).length,
      longestTaskMs: round1(Math.max(0, ...stats.longTasks)),
      batches: stats.batches.length,
      eventsPerSecond: round1((driven.done * 2) / driven.seconds),
      updateP50Ms: round1(pct(stats.batches, 0.5)),
      updateP95Ms: round1(pct(stats.batches, 0.95)),
      updateMaxMs: round1(Math.max(...stats.batches)),
      domNodes,
    };
  } finally {
    await context.close();
  }
}
