import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startPeriodicJob } from '../../api/platform/jobs/periodicJob';
import { ERROR_CODES } from '../../contract/errors';
import { RESTARTING_MESSAGE, RequestDrain } from '../../server/requestDrain';

// The two pieces a graceful shutdown waits on: requests in flight and a job's run in progress.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function arrived(drain: RequestDrain) {
  for (let i = 0; i < 200 && drain.inFlight === 0; i++) await sleep(10);
  expect(drain.inFlight).toBe(1);
}

describe('RequestDrain', () => {
  let server: http.Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  /** A server whose /slow answers after `ms`. */
  async function serve(drain: RequestDrain, ms: number) {
    server = http.createServer(
      drain.wrap((req, res) => {
        setTimeout(() => res.end(req.url), req.url === '/slow' ? ms : 0);
      }),
    );
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  }

  it('waits for the requests in flight, which complete, and refuses later ones with a retryable 503', async () => {
    const drain = new RequestDrain();
    const url = await serve(drain, 300);
    const slow = fetch(`${url}/slow`);
    await arrived(drain);
    const drained = drain.drain(5000);
    const late = await fetch(`${url}/fast`);
    expect(late.status).toBe(503);
    expect(late.headers.get('retry-after')).toBe('2');
    expect(late.headers.get('connection')).toBe('close');
    expect(await late.json()).toEqual({ message: RESTARTING_MESSAGE, code: ERROR_CODES.unavailable });
    const first = await slow;
    expect(first.status).toBe(200);
    expect(await first.text()).toBe('/slow');
    // The answer that finished during the drain closes its connection.
    expect(first.headers.get('connection')).toBe('close');
    expect(await drained).toBe(true);
  });

  it('gives up after the grace period, saying so', async () => {
    const drain = new RequestDrain();
    const url = await serve(drain, 2000);
    const slow = fetch(`${url}/slow`).catch(() => undefined);
    await arrived(drain);
    const started = Date.now();
    expect(await drain.drain(200)).toBe(false);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(drain.inFlight).toBe(1);
    server!.closeAllConnections();
    await slow;
  });

  it('with nothing in flight, is drained at once', async () => {
    expect(await new RequestDrain().drain(10_000)).toBe(true);
  });
});

describe('startPeriodicJob', () => {
  it('runs one at a time, and stop waits for the run in progress, after which none starts', async () => {
    let runs = 0;
    let running = 0;
    let overlapped = false;
    const stop = startPeriodicJob(10, async () => {
      runs++;
      running++;
      if (running > 1) overlapped = true;
      await sleep(60);
      running--;
    });
    await sleep(100);
    await stop();
    expect(running).toBe(0);
    const after = runs;
    await sleep(50);
    expect(runs).toBe(after);
    expect(overlapped).toBe(false);
    expect(runs).toBeGreaterThanOrEqual(1);
  });

  it('runNow runs at once; an interval of 0 sets no timer', async () => {
    let runs = 0;
    const stop = startPeriodicJob(
      0,
      async () => {
        runs++;
      },
      { runNow: true },
    );
    await stop();
    expect(runs).toBe(1);
  });
});
