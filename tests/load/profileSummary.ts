// Where a server's CPU went, from a V8 .cpuprofile (BENCH_SERVER_NODE_ARGS="--cpu-prof
// --cpu-prof-dir=DIR" npm run bench -- contention --quick writes one per scenario): self time by
// layer (this project's folders, each npm package, Node's internals, native calls named with their
// caller, GC), over the busiest WINDOW_S seconds (default 5: the load, not the start-up).
//
//   npx tsx tests/load/profileSummary.ts FILE.cpuprofile [rows] [top functions]
import fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, rowsArg = '20', functionsArg = '0'] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: profileSummary.ts FILE.cpuprofile [rows] [top functions]\n');
  process.exit(2);
}
const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parentOf = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));

/** The samples of the busiest window: [first, end) indexes. */
function busiestWindow(windowUs: number): [number, number] {
  const { samples, timeDeltas } = profile;
  const at: number[] = [];
  let t = 0;
  for (const dt of timeDeltas) {
    t += dt;
    at.push(t);
  }
  let [best, bestStart, start, busy] = [0, 0, 0, 0];
  for (let i = 0; i < samples.length; i++) {
    if (!idle.has(samples[i]!)) busy += timeDeltas[i]!;
    for (; at[i]! - at[start]! > windowUs; start++)
      if (!idle.has(samples[start]!)) busy -= timeDeltas[start]!;
    if (busy > best) [best, bestStart] = [busy, start];
  }
  let end = bestStart;
  while (end < samples.length && at[end]! - at[bestStart]! <= windowUs) end++;
  return [bestStart, end];
}

/** The layer a frame belongs to. */
function layerOf(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  if (!url) {
    if (functionName.startsWith('(')) return functionName;
    const caller = byId.get(parentOf.get(node.id) ?? -1)?.callFrame;
    return `native ${functionName || '?'} (from ${caller?.functionName || '?'})`;
  }
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return `npm ${pkg[1]}`;
  if (url.startsWith('node:')) return `node ${url.slice(5).split('/').slice(0, 2).join('/')}`;
  const own = url.match(/\/(api|server|db|contract|realtime|web)\/(?:([^/.]+)\/)?/);
  if (own) return `app ${own[1]}${own[2] ? `/${own[2]}` : ''}`;
  return url;
}

const [from, to] = busiestWindow(Number(process.env.WINDOW_S ?? 5) * 1e6);
const layers = new Map<string, number>();
const functions = new Map<string, number>();
let busy = 0;
let idleUs = 0;
for (let i = from; i < to; i++) {
  const id = profile.samples[i]!;
  const dt = profile.timeDeltas[i]!;
  if (idle.has(id)) {
    idleUs += dt;
    continue;
  }
  const node = byId.get(id)!;
  const layer = layerOf(node);
  busy += dt;
  layers.set(layer, (layers.get(layer) ?? 0) + dt);
  const fn = `${layer}: ${node.callFrame.functionName || '(anonymous)'}:${node.callFrame.lineNumber + 1}`;
  functions.set(fn, (functions.get(fn) ?? 0) + dt);
}

const share = (us: number) => `${((100 * us) / busy).toFixed(1).padStart(5)}%`;
const top = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
const out = [
  `${file}: busiest window ${((busy + idleUs) / 1e6).toFixed(1)} s, ${((100 * busy) / Math.max(1, busy + idleUs)).toFixed(0)}% busy`,
  ...top(layers, Number(rowsArg)).map(([k, us]) => `${share(us)}  ${k}`),
];
if (Number(functionsArg) > 0) {
  out.push('top functions:', ...top(functions, Number(functionsArg)).map(([k, us]) => `${share(us)}  ${k}`));
}
process.stdout.write(`${out.join('\n')}\n`);
