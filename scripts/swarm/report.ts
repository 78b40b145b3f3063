// The swarm's outputs: a self-contained HTML report (uPlot and its CSS inlined: it opens with no
// network) and a JSON file with the same figures.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { percentiles, STEPS } from './recorder';
import type { SwarmResult } from './run';

const uplotDir = path.dirname(createRequire(import.meta.url).resolve('uplot/dist/uPlot.iife.min.js'));
const COLOURS = ['#1f6feb', '#d29922', '#2da44e', '#8250df', '#cf222e'];

/** Time buckets of the run: about 60 of them, at least 1 s wide. */
function bucketsOf(durationMs: number) {
  const width = Math.max(1000, Math.ceil(durationMs / 60 / 1000) * 1000);
  return { width, count: Math.max(1, Math.ceil(durationMs / width)) };
}

/** The series of the three charts, as uPlot's aligned arrays. */
export function chartData({ figures, recorder, staleness }: SwarmResult) {
  const start = recorder.startedAt;
  const { width, count } = bucketsOf(figures.durationMs);
  const x = Array.from({ length: count }, (_, i) => (i * width) / 1000);
  const bucket = (at: number) => Math.min(count - 1, Math.max(0, Math.floor((at - start) / width)));

  const latency = STEPS.map((step) => {
    const per: number[][] = Array.from({ length: count }, () => []);
    // Sign-up comes before the clock: its steps are in the table, not over time.
    for (const s of recorder.samples) if (s.step === step && s.at >= start) per[bucket(s.at)]!.push(s.ms);
    return per.map((values) => percentiles(values).p95);
  });

  const counts = (times: number[]) => {
    const out = new Array<number>(count).fill(0);
    for (const t of times) out[bucket(t)]!++;
    return out;
  };
  const events = [
    counts(recorder.conflicts),
    counts(recorder.errors.map((e) => e.at)),
    counts(recorder.actions.filter((a) => a.kind === 'hold').map((a) => a.at)),
    counts(recorder.actions.filter((a) => a.kind === 'purchase').map((a) => a.at)),
  ];

  const values = staleness.values.map((v) => v.ms);
  const max = Math.max(1, ...values);
  const binWidth = Math.max(5, Math.ceil(max / 40 / 5) * 5);
  const bins = Math.floor(max / binWidth) + 1;
  const histogram = new Array<number>(bins).fill(0);
  for (const v of values) histogram[Math.floor(v / binWidth)]!++;

  return {
    latency: { x, series: latency },
    events: { x, series: events },
    staleness: { x: histogram.map((_, i) => i * binWidth), series: [histogram], binWidth },
  };
}

const html = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
const ms = (v: number | null) => (v === null ? '-' : `${v} ms`);

export function renderHtml(result: SwarmResult): string {
  const f = result.figures;
  const data = JSON.stringify(chartData(result)).replace(/</g, '\\u003c');
  const stepRows = STEPS.map(
    (s) =>
      `<tr><td>${s}</td><td>${f.steps[s].count}</td><td>${ms(f.steps[s].p50)}</td><td>${ms(f.steps[s].p95)}</td><td>${ms(f.steps[s].p99)}</td></tr>`,
  ).join('');
  const kinds = (['hold', 'purchase', 'release'] as const)
    .map((k) => {
      const p = f.staleness.byKind[k];
      return `<tr><td>${k}</td><td>${p.count}</td><td>${ms(p.p50)}</td><td>${ms(p.p95)}</td><td>${ms(p.p99)}</td></tr>`;
    })
    .join('');
  const l = f.launch;
  const launch = l
    ? `<h2>Queued launch</h2>
<table><tr><th>joined</th><th>let in</th><th>paid</th><th>hold p50 / p99</th><th>pay p99</th><th>queue staleness p50 / p99</th><th>update gap p99</th><th>fairness ρ</th><th>5xx</th></tr>
<tr><td>${l.joined}</td><td>${l.admitted}</td><td>${l.paid}</td><td>${ms(l.holdP50)} / ${ms(l.holdP99)}</td><td>${ms(l.payP99)}</td><td>${ms(l.stalenessP50)} / ${ms(l.stalenessP99)}</td><td>${ms(l.updateGapP99)}</td><td>${l.fairnessRho.toFixed(3)}</td><td>${l.serverErrors}</td></tr></table>`
    : '';
  const list = (items: string[], empty: string) =>
    items.length ? `<ul>${items.map((i) => `<li>${html(i)}</li>`).join('')}</ul>` : `<p>${empty}</p>`;
  return `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><title>Swarm report: ${html(f.competition.title)}</title>
<style>${fs.readFileSync(path.join(uplotDir, 'uPlot.min.css'), 'utf8')}
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #1f2328; max-width: 960px; }
table { border-collapse: collapse; margin: 8px 0 16px; } td, th { border: 1px solid #d0d7de; padding: 4px 10px; text-align: right; }
td:first-child, th:first-child { text-align: left; } .bad { color: #cf222e; } .ok { color: #1a7f37; }
</style></head><body>
<h1>Swarm report</h1>
<p>${f.mode === 'browsers' ? 'Browsers' : 'Protocol clients'} against <code>${html(f.base)}</code>, competition
${f.competition.id} '${html(f.competition.title)}' (${f.competition.totalTickets} tickets), started ${f.startedAt}, ${(f.durationMs / 1000).toFixed(1)} s.</p>
<h2 class="${f.violations.length ? 'bad' : 'ok'}">${f.violations.length ? `${f.violations.length} violation(s)` : 'No violations'}</h2>
${list(f.violations, 'No number sold twice; every paid number is in its buyer\u2019s My Entries and the public entries; the sold count matches.')}
<table><tr><th>customers</th><th>holds</th><th>purchases</th><th>numbers bought</th><th>conflicts shown</th><th>errors</th><th>console errors</th><th>failed requests</th><th>hold wait (limits)</th></tr>
<tr><td>${f.customers}</td><td>${f.holds}</td><td>${f.purchases}</td><td>${f.numbersBought}</td><td>${f.conflictsShown}</td><td>${f.errors}</td><td>${f.consoleErrors}</td><td>${f.failedRequests}</td><td>${f.holdWaitMs} ms</td></tr></table>
${launch}
<h2>Steps: click to the UI's confirmation</h2>
<table><tr><th>step</th><th>samples</th><th>p50</th><th>p95</th><th>p99</th></tr>${stepRows}</table>
<div id="latency"></div>
<h2>Staleness: buyer's click to the watcher's cell</h2>
<p>The watcher saw numbers 1 to ${f.watchedNumbers}. ${f.staleness.samples} samples (p50 ${ms(f.staleness.p50)}, p95 ${ms(f.staleness.p95)}, p99 ${ms(f.staleness.p99)}); ${f.staleness.missed} change(s) never seen.
A release is timed from the moment its hold expired, so it includes the sweeper's interval.</p>
<table><tr><th>change</th><th>samples</th><th>p50</th><th>p95</th><th>p99</th></tr>${kinds}</table>
<div id="staleness"></div>
<h2>Conflicts, errors, holds and purchases over time</h2>
<div id="events"></div>
<h2>Warnings</h2>${list(f.warnings, 'None.')}
<h2>Errors</h2>${list(f.errorMessages, 'None.')}
<h2>Failed requests (first distinct ones)</h2>${list(f.failedRequestSamples, 'None.')}
<script>${fs.readFileSync(path.join(uplotDir, 'uPlot.iife.min.js'), 'utf8')}</script>
<script>
const DATA = ${data};
const COLOURS = ${JSON.stringify(COLOURS)};
const line = (label, i) => ({ label, stroke: COLOURS[i], width: 2, spanGaps: true, points: { show: true, size: 4 } });
const bars = (label, i) => ({ label, stroke: COLOURS[i], fill: COLOURS[i] + '88', paths: uPlot.paths.bars({ size: [0.8, 60] }) });
function chart(id, title, xLabel, yLabel, block, series) {
  const opts = { title, width: 920, height: 300, scales: { x: { time: false } },
    axes: [{ label: xLabel }, { label: yLabel }], series: [{ label: xLabel }, ...series] };
  new uPlot(opts, [block.x, ...block.series], document.getElementById(id));
}
chart('latency', 'p95 latency per step over time', 's since start', 'ms', DATA.latency, ${JSON.stringify(STEPS)}.map(line));
chart('staleness', 'Staleness histogram (' + DATA.staleness.binWidth + ' ms bins)', 'ms', 'changes', DATA.staleness, [bars('changes', 0)]);
chart('events', 'Per time bucket', 's since start', 'count', DATA.events, ['conflicts shown', 'errors', 'holds', 'purchases'].map(line));
</script></body></html>`;
}

export function writeOutputs(
  result: SwarmResult,
  files: { report?: string | undefined; json?: string | undefined },
) {
  if (files.json) fs.writeFileSync(files.json, `${JSON.stringify(result.figures, null, 2)}\n`);
  if (files.report) fs.writeFileSync(files.report, renderHtml(result));
}
