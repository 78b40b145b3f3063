// A launch-queue client process for the capacity bench: BENCH_VISITORS visitors, each with its own
// guest session, join the queue (POST /api/competitions/:id/queue) and open one WebSocket speaking
// the Socket.IO v4 protocol with the session's cookie and the site's own Origin, so the socket sits
// in the visitor's own room and receives its `queue:position` updates, which are counted.
import WebSocket from 'ws';
import { TestClient } from '../support/httpClient';

const url = process.env.BENCH_URL!;
const count = Number(process.env.BENCH_VISITORS);
const competitionId = Number(process.env.BENCH_COMPETITION);

const sockets: WebSocket[] = [];
let positions = 0;

async function visitor(): Promise<void> {
  const client = new TestClient(url);
  await client.fetchCsrfToken();
  const joined = await client.post(`/api/competitions/${competitionId}/queue`);
  if ((joined.status !== 200 && joined.status !== 201) || joined.body?.status !== 'waiting')
    throw new Error(`queue join answered ${joined.status}: ${joined.text.slice(0, 200)}`);
  await new Promise<void>((resolve, reject) => {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`, {
      headers: { Cookie: client.cookieHeader, Origin: url },
    });
    ws.on('message', (data: Buffer) => {
      const text = data.toString();
      if (text === '2') return ws.send('3'); // Engine.IO ping -> pong
      if (text.startsWith('0')) return ws.send('40'); // Engine.IO open -> Socket.IO connect
      if (text.startsWith('40')) {
        sockets.push(ws);
        return resolve();
      }
      if (text.startsWith('44')) return reject(new Error(`socket refused: ${text.slice(0, 120)}`));
      if (text.startsWith('42["queue:position"')) positions++;
    });
    ws.once('error', reject);
  });
}

process.on('message', (message: { type: string }) => {
  if (message.type === 'report') {
    process.send?.({ type: 'report', positions });
  } else if (message.type === 'close') {
    for (const s of sockets) s.terminate();
    process.exit(0);
  }
});

// In batches, so the server is not hit by every session, join and handshake in one instant.
for (let i = 0; i < count; i += 50) {
  await Promise.all(Array.from({ length: Math.min(50, count - i) }, visitor));
}
process.send?.({ type: 'connected', count: sockets.length });
