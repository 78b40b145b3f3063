// Fan-out: sockets watching one competition while the server publishes ticket events at a steady
// rate. Baselines in the same run: a plain Socket.IO server (naiveServer.ts) and bare `ws` writing
// one shared frame per event (rawWsServer.ts: the floor of one process on this machine). Named
// figures: fanout-steady-p99 (baseline bare-ws p99), heap-per-socket and rss-per-socket (baseline
// plain Socket.IO's, same sockets, same run; with --quick its memory only); then the burst part
// (fanoutBurst): fanout-burst-p99 (baseline the same bare-ws p99 at 10 events/s) and
// fanout-burst-gaps.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrateLatest, openDatabase } from '../../../db/connection';
import {
  type BenchOptions,
  CLIENT_PROCESSES,
  child,
  collectFanout,
  formatCount,
  insertCompetition,
  medianOf,
  next,
  percentile,
  profileArgs,
  progress,
  type SectionResult,
  shares,
  stop,
} from '../harness';

export interface FanoutRun {
  sockets: number;
  /** tests/load script of the server: server.ts (this server), naiveServer.ts or rawWsServer.ts. */
  serverScript?: string;
  perSecond?: number;
  seconds?: number;
  /** Only the memory of `sockets` watching sockets: no events are published. */
  memoryOnly?: boolean;
}

export interface FanoutResult {
  p50: number;
  p95: number;
  p99: number;
  gaps: number;
  missing: number;
  heapMB: number;
  rssMB: number;
  /** Growth from the idle server to `sockets` watching sockets, after GC, per socket. */
  heapBytesPerSocket: number;
  rssBytesPerSocket: number;
  /** The server's CPU time (user + system) from the first event to the last, per event, in ms. */
  serverCpuMsPerEvent: number;
}

type Memory = { heapUsed: number; rss: number };

export async function fanoutRun({
  sockets,
  serverScript = 'server.ts',
  perSecond = 10,
  seconds = 10,
  memoryOnly = false,
}: FanoutRun): Promise<FanoutResult> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wcp-bench-'));
  const db = openDatabase({ dataDir, databaseUrl: undefined });
  await migrateLatest(db);
  const competitionId = await insertCompetition(db, 'Fan-out', 1000);
  await db.destroy();
  const server = child(serverScript, { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'test' }, [
    '--expose-gc',
    ...profileArgs(),
  ]);
  const memory = () => {
    server.send({ type: 'memory' });
    return next<Memory>(server, 'memory');
  };
  const { url } = await next<{ url: string }>(server, 'ready');
  const idle = await memory();
  const clients = shares(sockets, sockets < CLIENT_PROCESSES ? 1 : CLIENT_PROCESSES).map((n) =>
    child('fanoutClient.ts', {
      BENCH_URL: url,
      BENCH_COMPETITION: String(competitionId),
      BENCH_SOCKETS: String(n),
    }),
  );
  await Promise.all(clients.map((c) => next(c, 'connected')));
  const loaded = await memory();
  if (memoryOnly) {
    for (const c of clients) c.send({ type: 'close' });
    await Promise.all([...clients, server].map(stop));
    fs.rmSync(dataDir, { recursive: true, force: true });
    return {
      ...memoryFigures(sockets, idle, loaded),
      p50: 0,
      p95: 0,
      p99: 0,
      gaps: 0,
      missing: 0,
      serverCpuMsPerEvent: 0,
    };
  }
  server.send({ type: 'emit', competitionId, count: perSecond * seconds, perSecond });
  const { published, cpu } = await next<{ published: Record<number, number>; cpu: NodeJS.CpuUsage }>(
    server,
    'emitted',
  );
  await new Promise((r) => setTimeout(r, 1500));
  const { histogram, gaps, missing } = await collectFanout(clients, published);
  await stop(server);
  fs.rmSync(dataDir, { recursive: true, force: true });
  return {
    p50: percentile(histogram, 0.5),
    p95: percentile(histogram, 0.95),
    p99: percentile(histogram, 0.99),
    gaps,
    missing,
    ...memoryFigures(sockets, idle, loaded),
    serverCpuMsPerEvent:
      Math.round(((cpu.user + cpu.system) / 1000 / Object.keys(published).length) * 100) / 100,
  };
}

const mb = (b: number) => Math.round((b / 1024 / 1024) * 10) / 10;

/** The server's memory with `sockets` watching, and its growth per socket from idle (both after GC). */
function memoryFigures(sockets: number, idle: Memory, loaded: Memory) {
  return {
    heapMB: mb(loaded.heapUsed),
    rssMB: mb(loaded.rss),
    heapBytesPerSocket: Math.round((loaded.heapUsed - idle.heapUsed) / sockets),
    rssBytesPerSocket: Math.round((loaded.rss - idle.rss) / sockets),
  };
}

export async function fanout({ runs, quick }: BenchOptions): Promise<SectionResult> {
  const sizes = process.env.BENCH_SOCKETS
    ? process.env.BENCH_SOCKETS.split(',').map(Number)
    : quick
      ? [10_000]
      : [1, 1000, 5000, 10_000];
  const largest = Math.max(...sizes);
  const lines = [
    '### Fan-out: sockets watching one competition, 10 ticket events per second for 10 s',
    '',
    `Median of ${runs} run(s); clients (offering permessage-deflate, as browsers do) in ${CLIENT_PROCESSES} processes on the same machine as the server. Baselines in the same run, at the largest size: bare \`ws\` writing one shared frame per event (\`rawWsServer.ts\`, the machine's floor: the ratio column) and a plain Socket.IO server (\`naiveServer.ts\`, default options, no application: the memory baseline${quick ? '; its memory only, no events' : ''}).`,
    '',
    '| server | sockets | p50 ms | p95 ms | p99 ms | p99 / bare-ws p99 | gaps | not arrived 1.5 s after the last event | server CPU ms per event | server heap MB | server RSS MB | heap B/socket | RSS B/socket |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  // The floor first, so every row can be put against it.
  const rows: Array<[string, string, number]> = [
    ['baseline: bare ws, shared frame', 'rawWsServer.ts', largest],
    ...sizes.map((n): [string, string, number] => ['this server', 'server.ts', n]),
    [
      quick ? 'baseline: plain Socket.IO, memory only' : 'baseline: plain Socket.IO',
      'naiveServer.ts',
      largest,
    ],
  ];
  let bareP99 = 0;
  let ours: { p99: number; heap: number; rss: number } | undefined;
  let naive: { heap: number; rss: number } | undefined;
  for (const [label, serverScript, sockets] of rows) {
    const memoryOnly = quick && serverScript === 'naiveServer.ts';
    const { m } = await medianOf(runs, async (r) => {
      const result = await fanoutRun({ sockets, serverScript, memoryOnly });
      progress(
        `fan-out ${label}, ${sockets} sockets, run ${r + 1}: p99 ${result.p99} ms, heap ${result.heapBytesPerSocket} B/socket`,
      );
      return result;
    });
    const p99 = m((x) => x.p99);
    if (serverScript === 'rawWsServer.ts') bareP99 = Math.max(1, p99);
    const perSocket = serverScript !== 'rawWsServer.ts' && sockets >= 1000;
    const heap = m((x) => x.heapBytesPerSocket);
    const rss = m((x) => x.rssBytesPerSocket);
    if (serverScript === 'server.ts' && sockets === largest) ours = { p99, heap, rss };
    if (serverScript === 'naiveServer.ts') naive = { heap, rss };
    const timing = memoryOnly
      ? '- | - | - | - | - | - | -'
      : `${m((x) => x.p50)} | ${m((x) => x.p95)} | ${p99} | ${(p99 / bareP99).toFixed(2)} | ${m((x) => x.gaps)} | ${m((x) => x.missing)} | ${m((x) => x.serverCpuMsPerEvent)}`;
    lines.push(
      `| ${label} | ${formatCount(sockets)} | ${timing} | ${m((x) => x.heapMB)} | ${m((x) => x.rssMB)} | ${perSocket ? formatCount(heap) : '-'} | ${perSocket ? formatCount(rss) : '-'} |`,
    );
  }
  if (!ours || !naive)
    throw new Error('fan-out: no run of this server or plain Socket.IO at the largest size');
  const burst = await fanoutBurst({ runs, quick }, { sockets: largest, bareP99 });
  lines.push(
    '',
    `Memory per watching socket (after GC, idle -> ${formatCount(largest)} sockets): this server heap ${formatCount(ours.heap)} B, RSS ${formatCount(ours.rss)} B; plain Socket.IO heap ${formatCount(naive.heap)} B, RSS ${formatCount(naive.rss)} B: heap **${(ours.heap / naive.heap).toFixed(2)}x**, RSS ${(ours.rss / naive.rss).toFixed(2)}x (target heap <= 1.1x).`,
    '',
  );
  const bare = { name: 'bare-ws-p99', value: bareP99, unit: 'ms' };
  return {
    markdown: [lines.join('\n'), burst.markdown].join('\n'),
    scenarios: [
      { name: 'fanout-steady-p99', value: ours.p99, unit: 'ms', baseline: bare },
      {
        name: 'heap-per-socket',
        value: ours.heap,
        unit: 'bytes',
        baseline: { name: 'naive-heap-per-socket', value: naive.heap, unit: 'bytes' },
      },
      {
        name: 'rss-per-socket',
        value: ours.rss,
        unit: 'bytes',
        baseline: { name: 'naive-rss-per-socket', value: naive.rss, unit: 'bytes' },
      },
      ...burst.scenarios,
    ],
  };
}

/** The burst: 100 ticket events a second. */
export const BURST_PER_SECOND = 100;

/**
 * Burst fan-out: `sockets` watchers while the server publishes 100 events a second for 10 s (5 with
 * --quick), which it coalesces into `tickets:batch` frames (realtime/ticketBatches.ts). The target
 * compares its p99 with bare ws at the ordinary 10 events a second: `bareP99` when the caller
 * measured that at the same size in this run, else measured here. Bare ws at 100 events a second
 * (one frame per event, nothing coalesced) is shown for scale. Gaps and changes not arrived 1.5 s
 * after the last event are counted per socket.
 */
export async function fanoutBurst(
  { runs, quick }: BenchOptions,
  { sockets, bareP99 }: { sockets: number; bareP99?: number },
): Promise<SectionResult> {
  const seconds = quick ? 5 : 10;
  const lines = [
    `### Fan-out burst: ${formatCount(sockets)} sockets, ${BURST_PER_SECOND} ticket events per second for ${seconds} s`,
    '',
    `Median of ${runs} run(s), same clients as above. Target: p99 at most 1.5 times bare \`ws\`'s p99 at 10 events a second, measured in the same run; no gaps; nothing left undelivered 1.5 s after the last event.`,
    '',
    '| server | events/s | p50 ms | p95 ms | p99 ms | p99 / bare-ws p99 at 10/s | gaps | not arrived 1.5 s after the last event |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const rows: Array<[string, string, number]> = [
    ...(bareP99 === undefined
      ? [['baseline: bare ws, shared frame', 'rawWsServer.ts', 10] as [string, string, number]]
      : []),
    ...(quick
      ? []
      : [['bare ws, one frame per event', 'rawWsServer.ts', BURST_PER_SECOND] as [string, string, number]]),
    ['this server (tickets:batch)', 'server.ts', BURST_PER_SECOND],
  ];
  let floor = bareP99;
  let ours: { p99: number; gaps: number; missing: number } | undefined;
  for (const [label, serverScript, perSecond] of rows) {
    const { m } = await medianOf(runs, async (r) => {
      const result = await fanoutRun({
        sockets,
        serverScript,
        perSecond,
        seconds: perSecond === 10 ? 10 : seconds,
      });
      progress(
        `fan-out burst ${label}, ${perSecond}/s, run ${r + 1}: p99 ${result.p99} ms, gaps ${result.gaps}, missing ${result.missing}`,
      );
      return result;
    });
    const p99 = m((x) => x.p99);
    if (perSecond === 10) floor = Math.max(1, p99);
    if (serverScript === 'server.ts') ours = { p99, gaps: m((x) => x.gaps), missing: m((x) => x.missing) };
    lines.push(
      `| ${label} | ${perSecond} | ${m((x) => x.p50)} | ${m((x) => x.p95)} | ${p99} | ${(p99 / floor!).toFixed(2)} | ${m((x) => x.gaps)} | ${m((x) => x.missing)} |`,
    );
  }
  if (!ours || floor === undefined) throw new Error('fan-out burst: no run of this server');
  if (bareP99 !== undefined)
    lines.push(
      '',
      `Bare \`ws\` at 10 events a second: p99 ${bareP99} ms (the steady table's baseline, same run).`,
    );
  lines.push('');
  return {
    markdown: lines.join('\n'),
    scenarios: [
      {
        name: 'fanout-burst-p99',
        value: ours.p99,
        unit: 'ms',
        baseline: { name: 'bare-ws-p99', value: floor, unit: 'ms' },
      },
      { name: 'fanout-burst-gaps', value: ours.gaps + ours.missing, unit: 'count', baseline: null },
    ],
  };
}
