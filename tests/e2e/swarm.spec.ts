import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { SwarmFigures } from '../../scripts/swarm/run';
import { csrfHeaders, signInViaApi, unique } from './support';

// `npm run swarm` against the running e2e server: a small swarm (2 browsers x 2 pages, 10 s) on a
// competition of its own, then what a tester reads in its JSON. The server's limits stay on
// (REGISTRATIONS_PER_ADDRESS=1000 there); the swarm takes half of the hold budget, leaving the
// rest to the other specs that share 127.0.0.1.

function swarm(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('npx', ['tsx', 'scripts/swarm/main.ts', ...args], { env: process.env });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => resolve({ code, output }));
  });
}

test('a small swarm buys through the real UI, and its JSON reports the figures with no violations', async ({
  request,
  baseURL,
}) => {
  test.setTimeout(90_000);
  // Its own competition (Cash, which no other spec counts) with its own question: the swarm learns
  // the answer from the admin API.
  await signInViaApi(request, 'admin', 'admin123');
  const created = await request.post('/api/admin/competitions', {
    headers: await csrfHeaders(request),
    data: {
      title: unique('Swarm Cash '),
      description: 'Raced for by the swarm.',
      ticketPrice: 0.5,
      totalTickets: 300,
      endDate: new Date(Date.now() + 86_400_000).toISOString(),
      details: { category: 'Cash' },
      skillQuestion: { question: 'How many days are in a week?', options: ['5', '7', '9'], answer: '7' },
    },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: number };

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'swarm-'));
  const json = path.join(dir, 'swarm.json');
  const report = path.join(dir, 'swarm.html');
  const run = await swarm([
    ...['--base', baseURL!, '--competition', String(id), '--browsers', '2', '--pages-per-browser', '2'],
    ...['--duration', '10', '--json', json, '--report', report, '--limit-share', '0.5'],
  ]);
  expect(run.code, run.output).toBe(0);

  const figures = JSON.parse(fs.readFileSync(json, 'utf8')) as SwarmFigures;
  expect(figures.violations).toEqual([]);
  expect(figures.customers).toBe(4);
  expect(figures.purchases).toBeGreaterThanOrEqual(1);
  expect(figures.numbersBought).toBeGreaterThanOrEqual(figures.purchases);
  // The watcher saw the buyers' holds and purchases, and every step was timed.
  expect(figures.staleness.samples).toBeGreaterThanOrEqual(2);
  expect(figures.staleness.p50).toEqual(expect.any(Number));
  expect(figures.staleness.p99!).toBeGreaterThanOrEqual(figures.staleness.p50!);
  for (const step of ['register', 'skill', 'hold', 'checkout', 'pay'] as const)
    expect(figures.steps[step].p95, step).toEqual(expect.any(Number));
  expect(figures.errors, figures.errorMessages.join('\n')).toBe(0);

  // The public API agrees: a fresh competition sold exactly what the swarm bought.
  const competition = await (await request.get(`/api/competitions/${id}`)).json();
  expect(competition.ticketsSold).toBe(figures.numbersBought);
  // The watcher's grid rendered every number, not only the rows of a box below the fold.
  expect(figures.watchedNumbers).toBe(competition.totalTickets);

  // The report is one file with its charts' library inside: nothing to fetch.
  const html = fs.readFileSync(report, 'utf8');
  expect(html).toContain('uPlot');
  expect(html).not.toMatch(/<(script|link)[^>]+(src|href)=/);
});

test('the swarm refuses a competition that does not exist, says why and exits non-zero', async ({
  baseURL,
}) => {
  const run = await swarm(['--base', baseURL!, '--competition', '999999', '--duration', '1']);
  expect(run.code).toBe(2);
  expect(run.output).toContain('Competition 999999 not found (404)');
});
