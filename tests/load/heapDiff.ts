// What each watching socket keeps, by kind of object: two V8 heap snapshots of one server (idle,
// then with N sockets; memoryProbe.ts with SNAP=DIR writes them), grouped as Chrome DevTools'
// Summary groups them (constructor name for objects, the function's name for closures, the
// internal type otherwise), and the growth per socket printed largest first.
//   npx tsx tests/load/heapDiff.ts IDLE.heapsnapshot LOADED.heapsnapshot N [ROWS]
// A snapshot of 2,000 sockets is about 100 MB of JSON; run with --max-old-space-size=4096 if
// Node runs out of heap reading two.
import fs from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

/** Count and self bytes of each group of a snapshot. */
export function groups(file: string): Map<string, { count: number; bytes: number }> {
  const snap = JSON.parse(fs.readFileSync(file, 'utf8')) as Snapshot;
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const out = new Map<string, { count: number; bytes: number }>();
  for (let i = 0; i < snap.nodes.length; i += fields.length) {
    const type = types[snap.nodes[i + typeAt!]!]!;
    const name = snap.strings[snap.nodes[i + nameAt!]!]!;
    const key =
      type === 'object' || type === 'native'
        ? name
        : type === 'closure'
          ? `(closure) ${name || '(anonymous)'}`
          : type === 'hidden' || type === 'object shape' || type === 'code'
            ? `(${type}) ${name.split(' ')[0]}`
            : `(${type})`;
    const g = out.get(key) ?? { count: 0, bytes: 0 };
    g.count++;
    g.bytes += snap.nodes[i + sizeAt!]!;
    out.set(key, g);
  }
  return out;
}

/** Rows of (group, objects per socket, bytes per socket), largest growth first. */
export function perSocket(idleFile: string, loadedFile: string, sockets: number) {
  const idle = groups(idleFile);
  const loaded = groups(loadedFile);
  const keys = new Set([...idle.keys(), ...loaded.keys()]);
  return [...keys]
    .map((key) => {
      const a = idle.get(key) ?? { count: 0, bytes: 0 };
      const b = loaded.get(key) ?? { count: 0, bytes: 0 };
      return { key, count: (b.count - a.count) / sockets, bytes: (b.bytes - a.bytes) / sockets };
    })
    .sort((x, y) => y.bytes - x.bytes);
}

if (process.argv[1]?.endsWith('heapDiff.ts')) {
  const [idleFile, loadedFile, n, rows = '40'] = process.argv.slice(2);
  if (!idleFile || !loadedFile || !n) throw new Error('usage: heapDiff.ts IDLE LOADED SOCKETS [ROWS]');
  const diff = perSocket(idleFile, loadedFile, Number(n));
  const total = diff.reduce((sum, d) => sum + d.bytes, 0);
  console.info(`| group | objects per socket | bytes per socket |\n|---|---:|---:|`);
  for (const d of diff.slice(0, Number(rows)))
    console.info(`| ${d.key.replaceAll('|', '\\|')} | ${d.count.toFixed(2)} | ${Math.round(d.bytes)} |`);
  console.info(`| total (all groups) | | ${Math.round(total)} |`);
}
