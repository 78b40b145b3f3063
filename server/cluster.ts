// WEB_CONCURRENCY=N: the primary process owns the port and hands each connection to one of N
// workers, each a whole app (startServer) on the shared MariaDB, with the Redis adapter carrying
// Socket.IO broadcasts between them (docs/operations.md#several-workers-on-one-port).
//
// @socket.io/sticky rather than the cluster module's own round-robin: a Socket.IO long-polling
// session is a series of HTTP requests that must all reach the worker holding it, so the
// primary reads each connection's first bytes and keeps a session's connections on its worker.

import cluster, { type Worker } from 'node:cluster';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setupMaster } from '@socket.io/sticky';
import type { Logger } from 'pino';
import { AggregatorRegistry, type Registry } from 'prom-client';
import type { Config } from '../api/platform/config';

/** Primary -> worker: drain and exit (docs/operations.md#restarts). */
export const STOP_MESSAGE = 'wcp:stop';
/** Worker -> primary: started and ready for connections. */
export const READY_MESSAGE = 'wcp:ready';

/** Worker -> primary: every worker's metrics, please; primary -> worker: here they are. */
const METRICS_REQUEST = 'wcp:metrics';
const METRICS_ANSWER = 'wcp:metrics-answer';
const METRICS_TIMEOUT_MS = 5000;

const RESTART_DELAY_MS = 1000;

/**
 * A worker as @socket.io/sticky's least-connection balancer sees it: `clientsCount` is its count of
 * Socket.IO sessions, which it reads and updates on the worker object (an internal of 2.0.1, pinned
 * exactly in package.json).
 */
type BalancedWorker = Worker & { clientsCount?: number };

const isMessage = (message: unknown, type: string) =>
  typeof message === 'object' && message !== null && (message as { type?: unknown }).type === type;

export interface ClusterPrimary {
  url: string;
  /** Drains every worker and resolves with true when all of them exited cleanly. */
  stop(): Promise<boolean>;
}

/**
 * Forks `config.webConcurrency` workers, waits until each is ready, then listens. A worker that
 * dies after start-up is replaced; one that fails to start stops the whole start-up.
 */
export async function startPrimary(config: Config, logger: Logger): Promise<ClusterPrimary> {
  // Buffers must cross IPC as Buffers (the connection's first bytes, proxied chunks).
  cluster.setupPrimary({ serialization: 'advanced' });
  const server = http.createServer();
  setupMaster(server, { loadBalancingMethod: 'least-connection' });

  // A scrape reaches one worker, which asks here: prom-client's aggregator collects every worker's
  // registry over IPC and sums them (counters, histograms, the socket gauge).
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message) => {
    if (!isMessage(message, METRICS_REQUEST)) return;
    const { id } = message as { id: number };
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: METRICS_ANSWER, id, text }),
      (err: Error) => worker.send({ type: METRICS_ANSWER, id, error: err.message }),
    );
  });

  let stopping = false;
  let started = false;
  /** Workers that have said they are ready (and so listen for STOP_MESSAGE). */
  const ready = new WeakSet<Worker>();
  const fork = () =>
    new Promise<Worker>((resolve, reject) => {
      const worker: BalancedWorker = cluster.fork();
      // The balancer picks from every forked worker. One still starting has no handler for the
      // connections it is handed, and they would hang: until it is ready, it counts as full.
      worker.clientsCount = Number.POSITIVE_INFINITY;
      const onExit = (code: number | null) =>
        reject(new Error(`a worker exited with ${code} while starting`));
      worker.once('exit', onExit);
      worker.on('message', (message) => {
        if (!isMessage(message, READY_MESSAGE)) return;
        ready.add(worker);
        worker.clientsCount = 0;
        worker.off('exit', onExit);
        resolve(worker);
      });
    });

  cluster.on('exit', (worker, code, signal) => {
    if (stopping || !started) return;
    logger.error({ worker: worker.id, code, signal }, 'a worker stopped: starting another');
    setTimeout(() => {
      if (!stopping) fork().catch((err) => logger.error({ err }, 'a replacement worker failed to start'));
    }, RESTART_DELAY_MS).unref();
  });

  try {
    await Promise.all(Array.from({ length: config.webConcurrency }, fork));
  } catch (err) {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
    throw err;
  }
  started = true;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, resolve);
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://localhost:${port}`,
    stop: async () => {
      stopping = true;
      server.close();
      const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => Boolean(w));
      const codes = await Promise.all(
        workers.map(
          (worker) =>
            new Promise<number | null>((resolve) => {
              worker.once('exit', (code) => resolve(ready.has(worker) ? code : 0));
              // One still starting (a replacement) has nothing to drain yet.
              if (ready.has(worker)) worker.send({ type: STOP_MESSAGE });
              else worker.process.kill('SIGTERM');
            }),
        ),
      );
      return codes.every((code) => code === 0);
    },
  };
}

/** In a worker: calls `stop` when the primary asks, or when the primary is gone. */
export function followPrimary(stop: () => void): void {
  process.on('message', (message) => {
    if (isMessage(message, STOP_MESSAGE)) stop();
  });
  process.on('disconnect', stop);
  process.send?.({ type: READY_MESSAGE });
}

/**
 * In a worker: the metrics of every worker, from the primary (GET /metrics). The worker's own
 * registry answers the aggregator's requests.
 */
export function workerExposition(registry: Registry): () => Promise<string> {
  AggregatorRegistry.setRegistries([registry]);
  // Constructing one adds prom-client's worker-side listener that answers the aggregator.
  new AggregatorRegistry();
  let lastId = 0;
  const waiting = new Map<number, { resolve: (text: string) => void; reject: (err: Error) => void }>();
  process.on('message', (message) => {
    if (!isMessage(message, METRICS_ANSWER)) return;
    const { id, text, error } = message as { id: number; text?: string; error?: string };
    const waiter = waiting.get(id);
    waiting.delete(id);
    if (text !== undefined) waiter?.resolve(text);
    else waiter?.reject(new Error(`the workers' metrics could not be collected: ${error}`));
  });
  return () =>
    new Promise((resolve, reject) => {
      const id = ++lastId;
      waiting.set(id, { resolve, reject });
      process.send?.({ type: METRICS_REQUEST, id });
      setTimeout(() => {
        if (waiting.delete(id)) reject(new Error('the primary did not answer for the metrics'));
      }, METRICS_TIMEOUT_MS).unref();
    });
}
