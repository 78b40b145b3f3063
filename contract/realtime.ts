import * as v from 'valibot';

// Socket.IO events, exactly as ../shared/design/realtime-contract.md names them. Later features add
// their payload schemas here so server and client validate the same shapes.

export const SOCKET_EVENTS = {
  clock: 'clock',
  sessionEnded: 'session:ended',
} as const;

export const ClockEventSchema = v.object({ serverTime: v.pipe(v.string(), v.isoTimestamp()) });
export type ClockEvent = v.InferOutput<typeof ClockEventSchema>;

export interface ServerToClientEvents {
  clock: (payload: ClockEvent) => void;
  /** Extension: this socket's session was signed in elsewhere or signed out; re-check and reconnect. */
  'session:ended': () => void;
}

// biome-ignore lint/complexity/noBannedTypes: no client-to-server events exist yet; later features add them
export type ClientToServerEvents = {};
