import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../../contract/realtime';
import { useClock } from './clock';

export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let socket: AppSocket | undefined;

/** The page's one Socket.IO connection (same origin, default path), created on first use. */
export function getSocket(): AppSocket {
  if (!socket) {
    // WebSocket first (no sticky sessions needed behind a load balancer); long-polling as the fallback.
    socket = io({ withCredentials: true, transports: ['websocket', 'polling'] });
    socket.on('clock', ({ serverTime }) => useClock.getState().setServerTime(serverTime));
  }
  return socket;
}
