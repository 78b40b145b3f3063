// `npm run bench:web`: web quality of the production build. Builds the client, serves it on a
// fresh SQLite database with the demo data, then
// - Lighthouse (mobile preset) on the home page and a competition page, RUNS runs each (median);
// - the grid benchmark (grid.ts): the 100,000-number selector under 100 ticket events/s;
// and always the first-load JS of that build (firstLoad.ts), exact, so it goes in every report.
// Prints Markdown for docs/performance.md; `--json FILE` writes the named scenarios (report.ts).
//   npm run bench:web                       both, 3 runs each
//   npm run bench:web -- lighthouse         one section (lighthouse | grid)
//   npm run bench:web -- --runs 1           one run each
//   npm run bench:web -- --no-build         serve the build already in dist/web
//   npm run bench:web -- --json out.json    also write the JSON report
//   npm run bench:web -- --lhr DIR          save each Lighthouse report as DIR/<page>-<run>.json
//   BENCH_WEB_PORT=3214                     the server's port (default 3214)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../../scripts/chromium';
import { median, progress } from '../harness';
import { jsonTarget, type Scenario, writeScenarios } from '../report';
import { firstLoadJsGzip, firstLoadScenario } from './firstLoad';
import { type GridRun, gridOnce } from './grid';
import { type LighthouseRun, lighthouseOnce } from './lighthouse';
import { buildClient, ROOT, startSite } from './site';

const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const runs = runsAt >= 0 ? Number(args[runsAt + 1]) || 1 : 3;
const json = jsonTarget(args);
const sections = ['lighthouse', 'grid'].filter((s) => args.includes(s));
const chosen = sections.length > 0 ? sections : ['lighthouse', 'grid'];
const lhrAt = args.indexOf('--lhr');
const lhrDir = lhrAt >= 0 ? args[lhrAt + 1] : undefined;
if (lhrDir) fs.mkdirSync(lhrDir, { recursive: true });
const port = Number(process.env.BENCH_WEB_PORT ?? 3214);

const started = Date.now();
if (!args.includes('--no-build')) {
  progress('Building the client (npm run build)...');
  buildClient();
}
// The build being served, measured from its files: the same figure `npm run build` printed.
const firstLoad = await firstLoadJsGzip(path.join(ROOT, 'dist', 'web'));
const site = await startSite(port);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => void site.close().finally(() => process.exit(130)));

const scenarios: Scenario[] = [firstLoadScenario(firstLoad)];
const markdown: string[] = [
  `First-load JS (gzip -9): ${(firstLoad.bytes / 1024).toFixed(1)} KB in ${firstLoad.files.length} files (target 120 KB).`,
];
const none = null;
const fmt = (n: number) => n.toLocaleString('en-GB');

try {
  if (chosen.includes('lighthouse')) {
    const list: Array<{ id: number; title: string }> = await (
      await fetch(`${site.url}/api/competitions`)
    ).json();
    const competition = list.find((c) => c.title === 'Rolex Submariner Watch') ?? list[0];
    if (!competition) throw new Error('The demo data has no competitions');
    const pages = [
      { key: 'home', label: 'home `/`', path: '/' },
      {
        key: 'competition',
        label: `competition \`/competition/${competition.id}\``,
        path: `/competition/${competition.id}`,
      },
    ];
    const rows: string[] = [];
    for (const p of pages) {
      const results: LighthouseRun[] = [];
      for (let r = 0; r < runs; r++) {
        progress(`Lighthouse ${p.key}, run ${r + 1} of ${runs}...`);
        const saveTo = lhrDir ? path.join(lhrDir, `${p.key}-${r + 1}.json`) : undefined;
        // Lighthouse sometimes fails to record the trace (NO_NAVSTART, NO_FCP) on this machine,
        // twice in a row at times: such a run measured nothing, so it is run again; the third
        // failure in a row stops.
        for (let attempt = 1; ; attempt++) {
          try {
            results.push(await lighthouseOnce(site.url + p.path, saveTo));
            break;
          } catch (err) {
            if (attempt === 3) throw err;
            progress(`  ${(err as Error).message.split('\n')[0]}; running it again...`);
          }
        }
      }
      const m = (f: (x: LighthouseRun) => number) => median(results.map(f));
      const perf = results.map((x) => x.performance).join(', ');
      rows.push(
        `| ${p.label} | ${m((x) => x.performance)} (${perf}) | ${m((x) => x.accessibility)} | ${m((x) => x.bestPractices)} | ${m((x) => x.seo)} | ${m((x) => x.cls)} | ${fmt(m((x) => x.tbtMs))} | ${fmt(m((x) => x.lcpMs))} | ${fmt(m((x) => x.benchmarkIndex))} |`,
      );
      scenarios.push(
        {
          name: `lighthouse-${p.key}-performance`,
          value: m((x) => x.performance),
          unit: 'score',
          baseline: none,
        },
        {
          name: `lighthouse-${p.key}-accessibility`,
          value: m((x) => x.accessibility),
          unit: 'score',
          baseline: none,
        },
        {
          name: `lighthouse-${p.key}-best-practices`,
          value: m((x) => x.bestPractices),
          unit: 'score',
          baseline: none,
        },
        { name: `lighthouse-${p.key}-seo`, value: m((x) => x.seo), unit: 'score', baseline: none },
        { name: `lighthouse-${p.key}-cls`, value: m((x) => x.cls), unit: 'score', baseline: none },
        { name: `lighthouse-${p.key}-tbt`, value: m((x) => x.tbtMs), unit: 'ms', baseline: none },
        { name: `lighthouse-${p.key}-lcp`, value: m((x) => x.lcpMs), unit: 'ms', baseline: none },
        {
          name: `lighthouse-${p.key}-benchmark-index`,
          value: m((x) => x.benchmarkIndex),
          unit: 'index',
          baseline: none,
        },
      );
    }
    markdown.push(
      `### Lighthouse, mobile preset (median of ${runs}; performance of each run in brackets)\n\n` +
        '| page | Performance | Accessibility | Best Practices | SEO | CLS | TBT ms | LCP ms | BenchmarkIndex (machine CPU) |\n' +
        '|---|---:|---:|---:|---:|---:|---:|---:|---:|\n' +
        rows.join('\n'),
    );
  }

  if (chosen.includes('grid')) {
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    const results: GridRun[] = [];
    try {
      for (let r = 0; r < runs; r++) {
        progress(`Grid under 100 events/s, run ${r + 1} of ${runs}...`);
        results.push(await gridOnce(browser, site.url));
      }
    } finally {
      await browser.close();
    }
    const m = (f: (x: GridRun) => number) => median(results.map(f));
    scenarios.push(
      {
        name: 'grid-long-tasks-over-50ms',
        value: m((x) => x.longTasksOver50),
        unit: 'count',
        baseline: none,
      },
      { name: 'grid-update-p95-ms', value: m((x) => x.updateP95Ms), unit: 'ms', baseline: none },
      { name: 'grid-dom-nodes', value: m((x) => x.domNodes), unit: 'count', baseline: none },
    );
    markdown.push(
      `### Grid of 100,000 numbers, selector open, 100 ticket events/s for 10 s (median of ${runs})\n\n` +
        '| events/s reached | update batches | long tasks > 50 ms | longest task ms | update p50 ms | update p95 ms | update max ms | DOM nodes |\n' +
        '|---:|---:|---:|---:|---:|---:|---:|---:|\n' +
        `| ${m((x) => x.eventsPerSecond)} | ${fmt(m((x) => x.batches))} | ${m((x) => x.longTasksOver50)} | ${m((x) => x.longestTaskMs)} | ${m((x) => x.updateP50Ms)} | ${m((x) => x.updateP95Ms)} | ${m((x) => x.updateMaxMs)} | ${fmt(m((x) => x.domNodes))} |`,
    );
  }
} finally {
  await site.close();
}

console.info(
  `\n## Web quality (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, ${Math.round((Date.now() - started) / 1000)} s)\n\n${markdown.join('\n\n')}\n`,
);
if (json) {
  writeScenarios(json, scenarios);
  console.info(`Wrote ${scenarios.length} scenarios to ${json}`);
}
