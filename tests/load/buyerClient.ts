// A contention client process: BENCH_BUYERS buyers, each with its own session, holding tickets
// in a loop until the deadline and releasing each hold before the next (a buyer's Lucky Dips
// would otherwise merge into one item of at most 10). 'hot' buyers race for 10 hot numbers;
// 'lucky' buyers take Lucky Dips of 1-3 numbers; 'ping' clients only call GET /api/health, which
// measures what this machine can do at all with the same clients; 'floor' buyers send a hold and
// its release that stop at validation (400), the part of a hold no implementation can skip.
import { TestClient } from '../support/httpClient';

const url = process.env.BENCH_URL!;
const buyers = Number(process.env.BENCH_BUYERS);
const mode = process.env.BENCH_MODE as 'hot' | 'lucky' | 'ping' | 'floor';
const competitionId = Number(process.env.BENCH_COMPETITION);
const HOT = [101, 202, 303, 404, 505, 606, 707, 808, 909, 1000];

const clients = await Promise.all(
  Array.from({ length: buyers }, async () => {
    const c = new TestClient(url);
    await c.fetchCsrfToken();
    await c.post(`/api/competitions/${competitionId}/skill-answer`, { answer: '365' });
    return c;
  }),
);
process.send?.({ type: 'ready' });

const statuses: Record<number, number> = {};
const histogram: Record<number, number> = {}; // hold latency, 1 ms buckets
// The same latencies by answer (201 a hold won, 409 refused...): on hot numbers, whose they are.
const byStatus: Record<number, Record<number, number>> = {};
let holds = 0;

async function buyer(client: TestClient, deadline: number) {
  while (Date.now() < deadline) {
    if (mode === 'ping') {
      // The machine's ceiling for the simplest API request (session read + one query).
      const started = performance.now();
      const res = await client.get('/api/health');
      const ms = Math.round(performance.now() - started);
      histogram[ms] = (histogram[ms] ?? 0) + 1;
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      if (res.status === 200) holds++;
      continue;
    }
    // The floor's hold asks for no ticket (quantity 0): the request, its session and CSRF check,
    // the validation and a JSON answer, and no database work past the session.
    const body =
      mode === 'hot'
        ? { competitionId, quantity: 1, selectedNumbers: [HOT[Math.floor(Math.random() * HOT.length)]] }
        : { competitionId, quantity: mode === 'floor' ? 0 : 1 + Math.floor(Math.random() * 3) };
    const started = performance.now();
    const res = await client.post('/api/cart', body);
    const ms = Math.round(performance.now() - started);
    histogram[ms] = (histogram[ms] ?? 0) + 1;
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    byStatus[res.status] ??= {};
    byStatus[res.status]![ms] = (byStatus[res.status]![ms] ?? 0) + 1;
    if (res.status === 201) {
      holds++;
      await client.request('DELETE', `/api/cart/${res.body.id}`);
    } else if (mode === 'floor' && res.status === 400) {
      holds++;
      await client.request('DELETE', '/api/cart/0'); // 400 too: the id is validated first
    }
  }
}

process.on('message', async (message: { type: string; durationMs?: number }) => {
  if (message.type === 'go') {
    const deadline = Date.now() + message.durationMs!;
    await Promise.all(clients.map((c) => buyer(c, deadline)));
    process.send?.({ type: 'report', statuses, histogram, byStatus, holds });
  } else if (message.type === 'close') {
    process.exit(0);
  }
});
