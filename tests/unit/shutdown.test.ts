import { readFileSync } from 'node:fs';
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

  /** A GET on `agent`'s one kept-alive connection: its status, or the error that cut it off. */
  function get(agent: http.Agent, url: string): Promise<number | string> {
    return new Promise((resolve) => {
      http
        .get(url, { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        })
        .on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    });
  }

  it('keeps idle kept-alive connections open until quiet, so a request sent on one just after the drain gets the 503, not a reset', async () => {
    const drain = new RequestDrain();
    const url = await serve(drain, 0);
    drain.watch(server!);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    expect(await get(agent, `${url}/fast`)).toBe(200);
    // Nothing in flight: drained at once, the connection idle and kept alive.
    expect(await drain.drain(5000)).toBe(true);
    const closing = drain.quiet(300, 2000).then(() => server!.closeAllConnections());
    // The client sends on its kept-alive connection as the server shuts down.
    expect(await get(agent, `${url}/fast`)).toBe(503);
    await closing;
    agent.destroy();
  });

  it('waits for the quiet time after the last answer, and not at all once the connections are closed', async () => {
    const drain = new RequestDrain();
    const url = await serve(drain, 0);
    drain.watch(server!);
    const agent = new http.Agent({ keepAlive: true });
    expect(await get(agent, `${url}/fast`)).toBe(200);
    await drain.drain(5000);
    const started = Date.now();
    await drain.quiet(300, 5000);
    // The idle connection is given its quiet time, counted from its answer, and no more.
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(Date.now() - started).toBeLessThan(1500);
    agent.destroy();
    // With no connection left open, there is nothing to wait for.
    await sleep(50);
    const again = Date.now();
    await drain.quiet(300, 5000);
    expect(Date.now() - again).toBeLessThan(100);
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

describe('npm run serve', () => {
  it('runs node itself (with the tsx loader), not a wrapper process that relays stop signals', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
    expect(pkg.scripts.serve).toMatch(/^node --import tsx server\/main\.ts$/);
  });
});
