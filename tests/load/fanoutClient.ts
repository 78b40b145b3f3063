// A fan-out client process: opens `count` WebSockets speaking the Socket.IO v4 protocol directly
// (Engine.IO 4 framing), offering permessage-deflate as browsers do, each watching one
// competition, and records when each ticket change arrives, alone or in a `tickets:batch`. Much
// lighter than socket.io-client, so the 2-core machine's CPU goes to the server under test.
// Reports a latency histogram (1 ms buckets) and gap counts over IPC.
import WebSocket from 'ws';

const url = process.env.BENCH_URL!.replace(/^http/, 'ws');
const count = Number(process.env.BENCH_SOCKETS);
const competitionId = Number(process.env.BENCH_COMPETITION);

const sockets: WebSocket[] = [];
const arrivals: Array<Map<number, number>> = [];
let gaps = 0;
const VERSION = /"version":(\d+)/;

function open(i: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url}/socket.io/?EIO=4&transport=websocket`, { perMessageDeflate: true });
    const seen = new Map<number, number>();
    arrivals[i] = seen;
    let last = 0;
    const arrived = (version: number) => {
      seen.set(version, Date.now());
      if (version !== last + 1) gaps++; // a version skipped, repeated or out of order
      last = version;
    };
    ws.on('message', (data: Buffer) => {
      const text = data.toString();
      if (text === '2') return ws.send('3'); // Engine.IO ping -> pong
      if (text.startsWith('0')) return ws.send('40'); // Engine.IO open -> Socket.IO connect
      if (text.startsWith('40'))
        return ws.send(`420["competition:watch",{"competitionId":${competitionId}}]`);
      if (text.startsWith('430')) {
        if (!text.includes('"ok":true')) return reject(new Error(`watch refused: ${text.slice(0, 120)}`));
        sockets.push(ws);
        return resolve();
      }
      if (text.startsWith('42["tickets:reserved"')) arrived(Number(VERSION.exec(text)?.[1]));
      else if (text.startsWith('42["tickets:batch"')) {
        // A burst's coalesced changes (a few frames a second): each counts as if it came alone,
        // so the gap rule meets fromVersion first.
        const [, batch] = JSON.parse(text.slice(2)) as [string, { changes: Array<{ version: number }> }];
        for (const change of batch.changes) arrived(change.version);
      }
    });
    ws.once('error', reject);
  });
}

process.on('message', (message: { type: string; published?: Record<number, number> }) => {
  if (message.type === 'report') {
    const histogram: Record<number, number> = {};
    let missing = 0;
    for (const seen of arrivals) {
      for (const [version, sentAt] of Object.entries(message.published!)) {
        const at = seen.get(Number(version));
        if (at === undefined) {
          missing++;
          continue;
        }
        const ms = Math.max(0, at - sentAt);
        histogram[ms] = (histogram[ms] ?? 0) + 1;
      }
    }
    process.send?.({ type: 'report', histogram, gaps, missing });
  } else if (message.type === 'close') {
    for (const s of sockets) s.terminate();
    process.exit(0);
  }
});

// Connect in batches so the server is not hit by thousands of handshakes in one instant.
for (let i = 0; i < count; i += 100) {
  await Promise.all(Array.from({ length: Math.min(100, count - i) }, (_, j) => open(i + j)));
}
process.send?.({ type: 'connected', count: sockets.length });
