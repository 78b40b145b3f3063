import { Socket as EngineSocket, transports } from 'engine.io';
import { type MethodPatch, methodPatch } from './methodPatch';

/**
 * Broadcast fan-out cost. For a room broadcast Socket.IO frames the WebSocket message once
 * (`wsPreEncodedFrame`) and engine.io writes that same frame to every socket. engine.io turns this
 * off for all sockets whenever the server enables permessage-deflate, which we do so that the
 * 100,000-number snapshot goes out small; every ticket event was then re-framed (a copy and a
 * buffer) once per watching socket.
 *
 * A pre-encoded frame is an ordinary uncompressed frame (permessage-deflate allows those at any
 * time), so the only hazard is order: ws queues messages while it compresses a large one, and a
 * frame written past that queue would overtake it. So the shared frame is used only while the
 * socket's ws sender is idle (not compressing, nothing queued), which is exactly when ws itself
 * would write an uncompressed message straight through; otherwise the message takes the normal path.
 *
 * This reads two fields of ws's Sender (`_state`, `_queue`) as engine.io itself reads `_sender`;
 * tests/api/tickets/realtimeFrames.test.ts fails if a ws upgrade changes them.
 */
interface WsSender {
  _state?: number;
  _queue?: unknown[];
  sendFrame?: unknown;
}

const SENDER_IDLE = 0; // ws/lib/sender.js: DEFAULT (neither DEFLATING nor GET_BLOB_DATA)

export function senderIsIdle(sender: WsSender | undefined): boolean {
  return (
    typeof sender?.sendFrame === 'function' &&
    sender._state === SENDER_IDLE &&
    Array.isArray(sender._queue) &&
    sender._queue.length === 0
  );
}

interface WebSocketTransportInternals {
  _canSendPreEncodedFrame(packet: { options?: { wsPreEncodedFrame?: unknown } }): boolean;
  socket?: { _sender?: WsSender };
}

/** engine.io's WebSocket transport (shared by every server of the process) may use the shared frame. */
const sharedFrameWhenIdle = methodPatch(
  transports.websocket.prototype as unknown as WebSocketTransportInternals,
  '_canSendPreEncodedFrame',
  () =>
    function (this: WebSocketTransportInternals, packet) {
      return packet.options?.wsPreEncodedFrame !== undefined && senderIsIdle(this.socket?._sender);
    },
);

// The direct path. Even with a shared frame, engine.io does per socket and per event what a
// broadcast does not need: a packet object, three event emissions, a write buffer swap and a
// write callback (its own bookkeeping of when the transport may write again). At 10,000 watchers
// and 10 events a second that bookkeeping, not the system calls, saturated the process (the
// benchmark's bare-ws baseline shows the difference). When nothing else is in flight on that
// connection (open, WebSocket, transport writable, engine.io's buffer empty, ws sender idle) a
// broadcast frame is written straight to the socket, exactly what engine.io would write next;
// otherwise it takes engine.io's path, so order is always kept.
const directWrite = methodPatch(
  EngineSocket.prototype as unknown as EngineSocketInternals,
  'write',
  (write) =>
    function (this: EngineSocketInternals, data, options, callback) {
      const frame = options?.wsPreEncodedFrame;
      if (frame !== undefined && callback === undefined && writeFrameDirect(this, frame)) return this;
      return write.call(this, data, options, callback);
    },
);

/** Both patches of this module: the shared frame, and its direct write to an idle connection. */
export const sharedFramePatches: readonly MethodPatch[] = [sharedFrameWhenIdle, directWrite];

/**
 * Writes a pre-encoded frame straight to the connection's WebSocket when nothing else is in flight
 * on it (open, WebSocket transport, writable, engine.io's buffer empty, ws sender idle): exactly
 * what engine.io would write next. False when the frame must take engine.io's path instead.
 */
export function writeFrameDirect(conn: EngineSocketInternals, frame: unknown): boolean {
  const transport = conn.transport;
  if (
    conn.readyState === 'open' &&
    transport?.name === 'websocket' &&
    transport.writable &&
    conn.writeBuffer.length === 0 &&
    senderIsIdle(transport.socket?._sender)
  ) {
    (transport.socket!._sender as { sendFrame(list: unknown): void }).sendFrame(frame);
    return true;
  }
  return false;
}

/**
 * Packets waiting in engine.io's write buffer of a connection (queued while an earlier write is in
 * flight): read, never changed, by the shutdown hand-over (realtime/broadcaster.ts).
 */
export function bufferedPackets(conn: object): number {
  return (conn as Partial<EngineSocketInternals>).writeBuffer?.length ?? 0;
}

export interface EngineSocketInternals {
  readyState: string;
  writeBuffer: unknown[];
  transport?: { name: string; writable: boolean; socket?: { _sender?: WsSender } };
  write(data: unknown, options?: { wsPreEncodedFrame?: unknown }, callback?: unknown): unknown;
}
