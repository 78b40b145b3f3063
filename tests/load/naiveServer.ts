// The fan-out baseline: a plain Socket.IO server with default options and no application around
// it (no sessions, database or snapshot), emitting one event per change to a room. Speaks the same
// IPC protocol as server.ts for the 'emit' and 'memory' commands, so run.ts can measure both the
// same way in the same run (and 'heap-snapshot', for memoryProbe.ts).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeHeapSnapshot } from 'node:v8';
import { Server } from 'socket.io';
import { type EmitCommand, pacedEmit } from './pacedEmit';

type Command = EmitCommand | { type: 'memory' } | { type: 'heap-snapshot'; file: string };

const http = createServer();
const io = new Server(http);
io.on('connection', (socket) => {
  socket.on(
    'competition:watch',
    ({ competitionId }: { competitionId: number }, ack: (a: unknown) => void) => {
      void socket.join(`competition:${competitionId}`);
      ack({ ok: true, snapshot: { competitionId, version: 0 } });
    },
  );
});
await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
const send = (message: unknown) => process.send?.(message);

process.on('message', async (command: Command) => {
  if (command.type === 'emit') {
    send(
      await pacedEmit('naive', command, (payload) =>
        io.to(`competition:${payload.competitionId}`).emit('tickets:reserved', payload),
      ),
    );
  } else if (command.type === 'memory') {
    global.gc?.();
    global.gc?.();
    send({ type: 'memory', ...process.memoryUsage() });
  } else if (command.type === 'heap-snapshot') {
    global.gc?.();
    send({ type: 'heap-snapshot', file: writeHeapSnapshot(command.file) });
  }
});

send({ type: 'ready', url: `http://127.0.0.1:${(http.address() as AddressInfo).port}` });
process.once('SIGTERM', () => {
  io.close();
  process.exit(0);
});
