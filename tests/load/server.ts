// A benchmark app process: the real server (startServer) on the database and port it is given,
// driven over IPC by tests/load/run.ts. Run with --expose-gc so memory readings are after a GC.
import { writeHeapSnapshot } from 'node:v8';
import pino from 'pino';
import { loadConfig } from '../../api/platform/config';
import { transactionStats } from '../../api/platform/unitOfWork';
import { startServer } from '../../server/startServer';
import { type EmitCommand, pacedEmit } from './pacedEmit';

type Command =
  | EmitCommand
  | { type: 'memory' }
  | { type: 'stats' }
  | { type: 'sockets' }
  | { type: 'heap-snapshot'; file: string };

const config = loadConfig({
  // The buyers hold as fast as they can from one address: the request-rate limits would measure
  // themselves (docs/security.md). The per-person cap stays on; buyers release each hold.
  RATE_LIMITS: 'off',
  ...process.env,
  SEED_DEMO_DATA: '0',
  // Off unless a scenario needs the periodic jobs (the launch queue's tick runs with the sweeper).
  SWEEP_INTERVAL_MS: process.env.BENCH_SWEEP_INTERVAL_MS ?? '0',
  LOG_LEVEL: 'silent',
});
const running = await startServer(config, { logger: pino({ level: 'silent' }) });
const send = (message: unknown) => process.send?.(message);

process.on('message', async (command: Command) => {
  if (command.type === 'emit') {
    send(
      await pacedEmit('server', command, (payload) =>
        running.deps.events.publish('tickets.reserved', payload),
      ),
    );
  } else if (command.type === 'memory') {
    global.gc?.();
    global.gc?.();
    send({ type: 'memory', ...process.memoryUsage() });
  } else if (command.type === 'stats') {
    send({ type: 'stats', ...transactionStats });
  } else if (command.type === 'heap-snapshot') {
    // For finding what each socket keeps (docs/performance.md, memory per socket).
    global.gc?.();
    send({ type: 'heap-snapshot', file: writeHeapSnapshot(command.file) });
  } else if (command.type === 'sockets') {
    send({ type: 'sockets', count: running.io.engine.clientsCount });
  }
});

send({ type: 'ready', url: running.url });

// Exit normally on SIGTERM so --cpu-prof (BENCH_SERVER_NODE_ARGS) can write its profile.
process.once('SIGTERM', () => {
  void running.close().finally(() => process.exit(0));
});
