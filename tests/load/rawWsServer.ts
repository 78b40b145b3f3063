// The machine's floor for fan-out: bare `ws` (no Socket.IO, no Engine.IO framework), speaking just
// enough of the Engine.IO/Socket.IO text protocol for fanoutClient.ts, and writing one frame built
// once per event to every socket (the same shared-frame technique the real server uses). What it
// cannot do on this machine, no Socket.IO server can. Same IPC protocol as naiveServer.ts.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as wsModule from 'ws';
import { type WebSocket, WebSocketServer } from 'ws';
import { type EmitCommand, pacedEmit, type TicketPayload } from './pacedEmit';

type Command = EmitCommand | { type: 'memory' };

const http = createServer();
const wss = new WebSocketServer({ server: http, path: '/socket.io/' });
const watchers = new Set<WebSocket>();
wss.on('connection', (ws) => {
  ws.send('0{"sid":"x","upgrades":[],"pingInterval":25000,"pingTimeout":20000,"maxPayload":1000000}');
  ws.on('message', (data) => {
    const text = data.toString();
    if (text === '40') ws.send('40{"sid":"y"}');
    else if (text.startsWith('420["competition:watch"')) {
      watchers.add(ws);
      ws.send('430[{"ok":true,"snapshot":{"version":0}}]');
    }
  });
  ws.on('close', () => watchers.delete(ws));
});
await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
const send = (message: unknown) => process.send?.(message);

/** One frame built once per event, written to every watcher. */
function publish(payload: TicketPayload) {
  // biome-ignore lint/suspicious/noExplicitAny: ws's Sender.frame is public but untyped
  const frame = (wsModule as any).Sender.frame(
    Buffer.from(`42${JSON.stringify(['tickets:reserved', payload])}`),
    {
      readOnly: false,
      mask: false,
      rsv1: false,
      opcode: 1,
      fin: true,
    },
  );
  // biome-ignore lint/suspicious/noExplicitAny: the same internal engine.io uses for broadcasts
  for (const ws of watchers) (ws as any)._sender.sendFrame(frame);
}

process.on('message', async (command: Command) => {
  if (command.type === 'emit') {
    send(await pacedEmit('raw', command, publish));
  } else if (command.type === 'memory') {
    global.gc?.();
    send({ type: 'memory', ...process.memoryUsage() });
  }
});

send({ type: 'ready', url: `http://127.0.0.1:${(http.address() as AddressInfo).port}` });
process.once('SIGTERM', () => process.exit(0));
