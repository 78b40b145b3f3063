import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { senderIsIdle } from '../../../fastpaths/preEncodedFrames';
import { shopper } from '../../support/accounts';
import { insertCompetition } from '../../support/fixtures';
import { barrier, collect, connectSocket, type TestSocket, waitFor, watch } from '../../support/sockets';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { startTestServer, type TestServer } from '../../support/testServer';

interface Sender {
  _state: number;
  _queue: unknown[];
  sendFrame(list: Buffer[], cb?: unknown): void;
}
interface ServerWebSocket {
  _sender: Sender;
  _extensions: Record<string, unknown>;
}

// One broadcast is framed once and the same frame written to every watcher, even though the
// server offers permessage-deflate (which engine.io would otherwise treat as a reason to re-frame
// per socket). See fastpaths/preEncodedFrames.ts. With FAST_PATHS=off the libraries frame and
// write as they ship, and only what any server must do is tested.
const fastPathsOff = process.env.FAST_PATHS === 'off';
const WITHOUT_FAST_PATHS = 'a fast path, off in this run (FAST_PATHS=off)';

describe.skipIf(engineUnavailable())(`shared broadcast frames on ${testEngine()}`, () => {
  let server: TestServer;
  const sockets: TestSocket[] = [];
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await server?.stop();
  });

  /** The server's ws connection behind a client socket (engine.io and ws internals, on purpose). */
  const wsOf = (socket: TestSocket): ServerWebSocket => {
    const transport = server.io.sockets.sockets.get(socket.id!)!.conn.transport;
    return (transport as unknown as { socket: ServerWebSocket }).socket;
  };
  const senderOf = (socket: TestSocket) => wsOf(socket)._sender;

  it('reads ws internals that still exist: an idle sender is recognised, a busy one is not', async () => {
    const socket = await connectSocket(server.url);
    sockets.push(socket);
    const sender = senderOf(socket);
    expect(senderIsIdle(sender)).toBe(true);
    expect(senderIsIdle({ ...sender, _state: 1, sendFrame: sender.sendFrame })).toBe(false);
    expect(senderIsIdle({ ...sender, _queue: [[]], sendFrame: sender.sendFrame })).toBe(false);
  });

  it('writes the very same frame to every watcher of a competition, with deflate negotiated, in order', async ({
    skip,
  }) => {
    skip(fastPathsOff, WITHOUT_FAST_PATHS);
    const id = await insertCompetition(server.database.db, { totalTickets: 100 });
    const watchers = await Promise.all([connectSocket(server.url), connectSocket(server.url)]);
    sockets.push(...watchers);
    const written: Buffer[][] = [];
    for (const w of watchers) {
      expect((await watch(w, id)).ok).toBe(true);
      const sender = senderOf(w);
      // The test client (socket.io-client over ws) negotiates permessage-deflate, as browsers do.
      expect(Object.keys(wsOf(w)._extensions)).toContain('permessage-deflate');
      const original = sender.sendFrame.bind(sender);
      const mine: Buffer[] = [];
      written.push(mine);
      sender.sendFrame = (list: Buffer[], cb?: unknown) => {
        mine.push(list[0]!);
        original(list, cb);
      };
    }
    const received = watchers.map((w) => collect(w, 'tickets:reserved'));
    const buyer = await shopper(server.url, id);
    for (const n of [5, 6]) {
      expect(
        (await buyer.post('/api/cart', { competitionId: id, quantity: 1, selectedNumbers: [n] })).status,
      ).toBe(201);
    }
    await waitFor(() => received.every((r) => r.length === 2), 2000, 'both events at both watchers');
    for (const r of received) expect(r.map((e) => e.numbers)).toEqual([[5], [6]]);
    // Each event's frame (its header buffer, allocated per framing) is one shared object, not one
    // framed per socket.
    expect(written[0]!.length).toBeGreaterThanOrEqual(2);
    expect(written[1]!.length).toBe(written[0]!.length);
    written[0]!.forEach((frame, i) => {
      expect(written[1]![i]).toBe(frame);
    });
  });
  it('writes a broadcast straight to an idle connection, skipping engine.io, and never ahead of what is queued', async ({
    skip,
  }) => {
    skip(fastPathsOff, WITHOUT_FAST_PATHS);
    const id = await insertCompetition(server.database.db, { totalTickets: 100 });
    const [idle, busy] = await Promise.all([connectSocket(server.url), connectSocket(server.url)]);
    sockets.push(idle, busy);
    for (const w of [idle, busy]) expect((await watch(w, id)).ok).toBe(true);
    const engineOf = (w: TestSocket) =>
      server.io.sockets.sockets.get(w.id!)!.conn as unknown as {
        writeBuffer: unknown[];
        transport: { writable: boolean };
        on(event: 'packetCreate', fn: (p: { type: string; data?: unknown }) => void): void;
      };
    const viaEngine = new Map<TestSocket, string[]>();
    for (const w of [idle, busy]) {
      const seen: string[] = [];
      viaEngine.set(w, seen);
      engineOf(w).on('packetCreate', (p) => seen.push(String(p.data ?? p.type)));
    }
    // `busy` has a write in flight: engine.io's transport is not writable until ws calls back.
    const busyTransport = engineOf(busy).transport;
    busyTransport.writable = false;
    const received = [idle, busy].map((w) => collect(w, 'tickets:reserved'));
    const buyer = await shopper(server.url, id);
    expect(
      (await buyer.post('/api/cart', { competitionId: id, quantity: 1, selectedNumbers: [9] })).status,
    ).toBe(201);
    await waitFor(() => received[0]!.length === 1, 2000, "the idle watcher's event");
    // The idle connection got it without an engine.io packet; the busy one queued it in engine.io
    // (nothing may overtake its write in flight) and receives it once that write completes.
    expect(viaEngine.get(idle)).toEqual([]);
    expect(viaEngine.get(busy)!.some((d) => d.includes('tickets:reserved'))).toBe(true);
    expect(received[1]).toEqual([]);
    busyTransport.writable = true;
    (engineOf(busy) as unknown as { flush(): void }).flush();
    await waitFor(() => received[1]!.length === 1, 2000, "the busy watcher's event after its write");
    expect(received[1]![0]!.numbers).toEqual([9]);
  });

  it('sends each change to the room as it is at that moment: joiners get the next one, leavers no more', async () => {
    const id = await insertCompetition(server.database.db, { totalTickets: 100 });
    const room = server.io.sockets.adapter.rooms;
    const [first, second, third] = await Promise.all([
      connectSocket(server.url),
      connectSocket(server.url),
      connectSocket(server.url),
    ]);
    sockets.push(first, second, third);
    const got = new Map([first, second, third].map((w) => [w, collect(w, 'tickets:reserved')]));
    const numbers = (w: TestSocket) => got.get(w)!.map((e) => e.numbers[0]);
    const buyer = await shopper(server.url, id);
    const hold = async (n: number) =>
      expect(
        (await buyer.post('/api/cart', { competitionId: id, quantity: 1, selectedNumbers: [n] })).status,
      ).toBe(201);

    expect((await watch(first, id)).ok).toBe(true);
    await hold(1);
    await waitFor(() => numbers(first).length === 1, 2000, 'the first change');
    // Two more watchers after the room has been sent to.
    for (const w of [second, third]) expect((await watch(w, id)).ok).toBe(true);
    await hold(2);
    await waitFor(() => numbers(third).length === 1, 2000, "the later watchers' first change");
    // Then the first stops watching and the third disconnects.
    first.emit('competition:unwatch', { competitionId: id });
    third.disconnect();
    await waitFor(() => room.get(`competition:${id}`)?.size === 1, 2000, 'two watchers gone');
    await hold(3);
    await waitFor(() => numbers(second).length === 2, 2000, "the second watcher's second change");
    // The change went to the room in one broadcast: one to the first watcher would be here now.
    await barrier(first);
    expect(numbers(first)).toEqual([1, 2]);
    expect(numbers(second)).toEqual([2, 3]);
    expect(numbers(third)).toEqual([2]);
  });
});
