// An app process for the capacity bench's queue measurement (scenarios/capacity.ts): the real
// server (startServer) with its jobs off, which runs the launch queue's tick (runLaunchQueues, what
// the job runs every second) when told over IPC, and counts the queue positions it publishes. With
// no command it only serves, and with REDIS_URL it receives every broadcast of the others.
import pino from 'pino';
import { loadConfig } from '../../api/platform/config';
import { runLaunchQueues } from '../../api/tickets/queue/admission';
import { startServer } from '../../server/startServer';

interface TickCommand {
  type: 'queue-ticks';
  count: number;
  intervalMs: number;
}

const config = loadConfig({
  RATE_LIMITS: 'off',
  ...process.env,
  SEED_DEMO_DATA: '0',
  SWEEP_INTERVAL_MS: '0',
  LOG_LEVEL: 'silent',
});
const running = await startServer(config, { logger: pino({ level: 'silent' }) });
const { db, events } = running.deps;
const send = (message: unknown) => process.send?.(message);

let updates = 0;
events.subscribe('queue.positions', ({ places }) => {
  updates += places.length;
});

process.on('message', async (command: TickCommand) => {
  if (command.type !== 'queue-ticks') return;
  const before = updates;
  const started = Date.now();
  for (let i = 0; i < command.count; i++) {
    const wait = started + i * command.intervalMs - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    await runLaunchQueues({ db, events, settings: config.launchQueue });
  }
  send({ type: 'ticked', updates: updates - before });
});

send({ type: 'ready', url: running.url });

process.once('SIGTERM', () => {
  void running.close().finally(() => process.exit(0));
});
