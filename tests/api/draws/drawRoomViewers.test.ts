import type { Knex } from 'knex';
import { afterEach, describe, expect, it } from 'vitest';
import { insertCompetition } from '../../support/fixtures';
import { collect, connectSocket, type TestSocket, waitFor } from '../../support/sockets';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// The draw room's live viewer count (realtime/drawRoomViewers.ts): joined and left, counted per
// room, sent to the room's sockets at most once a second after a change.

describe.skipIf(engineUnavailable())(`draw room viewers on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  useTestServer((s) => {
    server = s;
    db = s.database.db;
  });
  const sockets: TestSocket[] = [];
  afterEach(() => {
    for (const s of sockets.splice(0)) s.disconnect();
  });
  const viewer = async () => {
    const socket = await connectSocket(server.url);
    sockets.push(socket);
    return socket;
  };
  const join = (socket: TestSocket, competitionId: unknown) =>
    socket.timeout(5000).emitWithAck('draw-room:join', { competitionId } as { competitionId: number });
  const latest = (seen: Array<{ viewers: number }>) => seen.at(-1)?.viewers;

  it('counts the viewers of one room, not of others, and follows them leaving', async () => {
    const id = await insertCompetition(db);
    const other = await insertCompetition(db);
    const [a, b, c] = [await viewer(), await viewer(), await viewer()];
    const seen = [a, b, c].map((s) => collect(s, 'draw-room:viewers'));
    expect(await join(a, id)).toEqual({ ok: true });
    expect(await join(b, id)).toEqual({ ok: true });
    expect(await join(c, other)).toEqual({ ok: true });
    await waitFor(() => latest(seen[0]!) === 2 && latest(seen[1]!) === 2, 5000, '2 viewers');
    await waitFor(() => latest(seen[2]!) === 1, 5000, '1 viewer of the other room');
    expect(seen[2]!.every((e) => e.competitionId === other)).toBe(true);

    b.emit('draw-room:leave', { competitionId: id });
    await waitFor(() => latest(seen[0]!) === 1, 5000, '1 viewer after a leave');
    c.disconnect();
    a.disconnect();
  });

  it('refuses a bad id, and a third draw room on one socket', async () => {
    const socket = await viewer();
    expect(await join(socket, 'seven')).toEqual({ ok: false });
    const ids = [await insertCompetition(db), await insertCompetition(db), await insertCompetition(db)];
    expect(await join(socket, ids[0])).toEqual({ ok: true });
    expect(await join(socket, ids[1])).toEqual({ ok: true });
    expect(await join(socket, ids[2])).toEqual({ ok: false });
  });
});
