import { Adapter } from 'socket.io-adapter';
import { methodPatch } from './methodPatch';
import { type EngineSocketInternals, writeFrameDirect } from './preEncodedFrames';

/**
 * A broadcast to one room, the only kind a ticket change is. socket.io-adapter's generic path
 * gathers the recipients of any set of rooms into a fresh set of ids (so a socket in two rooms
 * gets one copy), calls a closure per socket, and reaches the connection through Socket.IO's
 * client. One room's members are already distinct, so here they are walked as they are and each
 * frame goes straight to the connection (preEncodedFrames.ts), or through the client's usual
 * write when it cannot. Anything else (several rooms, exceptions, volatile or compress flags) takes
 * the library's own path. Local delivery only: the Redis adapter publishes first, then calls this
 * for this process's sockets, and calls it again for a broadcast from another process.
 */
interface PacketOptions {
  preEncoded: boolean;
  volatile?: boolean;
  compress?: boolean;
  wsPreEncodedFrame?: unknown;
}
interface SocketInternals {
  notifyOutgoingListeners(packet: unknown): void;
  client: { conn: EngineSocketInternals; writeToEngine(packets: unknown[], opts: PacketOptions): void };
}
interface BroadcastOptions {
  rooms: Set<string>;
  except?: Set<string>;
  flags?: { volatile?: boolean; compress?: boolean };
}
interface AdapterInternals {
  on(event: 'join-room' | 'leave-room', listener: (room: string) => void): void;
  rooms: Map<string, Set<string>>;
  nsp: { name: string; sockets: Map<string, SocketInternals> };
  _encode(packet: { nsp?: string }, opts: PacketOptions): unknown[];
  broadcast(packet: { nsp?: string }, opts: BroadcastOptions): void;
}

/** One room's recipients, looked up once: the socket and its engine.io connection, side by side. */
interface Recipients {
  sockets: SocketInternals[];
  conns: EngineSocketInternals[];
}

/**
 * Each room's recipients since its membership last changed. Finding 10,000 sockets by id in the
 * namespace's map took more CPU per event than writing the frame itself (hash lookups over a table
 * far larger than the CPU cache); a room's members change rarely next to how often it is sent to.
 * Any join or leave of the room drops its entry.
 */
const cached = new WeakMap<AdapterInternals, Map<string, Recipients>>();

function recipientsOf(adapter: AdapterInternals, room: string, members: Set<string>): Recipients {
  let rooms = cached.get(adapter);
  if (!rooms) {
    const fresh = new Map<string, Recipients>();
    const forget = (changed: string) => fresh.delete(changed);
    adapter.on('join-room', forget);
    adapter.on('leave-room', forget);
    cached.set(adapter, fresh);
    rooms = fresh;
  }
  const known = rooms.get(room);
  if (known) return known;
  const found: Recipients = { sockets: [], conns: [] };
  let complete = true;
  for (const id of members) {
    const socket = adapter.nsp.sockets.get(id);
    // A socket joins its private rooms while its handshake runs, before the namespace lists it
    // (and without a join event once it does): such a room is looked up afresh each time.
    if (!socket) complete = false;
    else {
      found.sockets.push(socket);
      found.conns.push(socket.client.conn);
    }
  }
  if (complete) rooms.set(room, found);
  return found;
}

/**
 * The one-room path, on socket.io-adapter's Adapter prototype: every adapter of the process, Redis's
 * included, inherits it.
 */
export const oneRoomBroadcastPatch = methodPatch(
  Adapter.prototype as unknown as AdapterInternals,
  'broadcast',
  (broadcast) =>
    function (this: AdapterInternals, packet, opts) {
      const flags = opts.flags ?? {};
      if (
        opts.rooms.size !== 1 ||
        (opts.except?.size ?? 0) > 0 ||
        flags.volatile ||
        flags.compress !== undefined
      )
        return broadcast.call(this, packet, opts);
      const [room] = opts.rooms;
      const members = this.rooms.get(room!);
      if (!members) return;
      packet.nsp = this.nsp.name;
      const packetOpts: PacketOptions = { preEncoded: true };
      const encoded = this._encode(packet, packetOpts);
      const frame = packetOpts.wsPreEncodedFrame;
      const { sockets, conns } = recipientsOf(this, room!, members);
      for (let i = 0; i < sockets.length; i++) {
        const socket = sockets[i]!;
        socket.notifyOutgoingListeners(packet);
        if (frame === undefined || !writeFrameDirect(conns[i]!, frame))
          socket.client.writeToEngine(encoded, packetOpts);
      }
    },
);
