import { create } from 'zustand';
import { getSocket } from './socket';

interface ClockState {
  /** serverTime - Date.now() at the last `clock` event. */
  offsetMs: number;
  setServerTime: (iso: string) => void;
}

/** Keeps the offset to the server clock so every countdown follows the server, not the device. */
export const useClock = create<ClockState>((set) => ({
  offsetMs: 0,
  setServerTime: (iso) => {
    const server = Date.parse(iso);
    if (Number.isFinite(server)) set({ offsetMs: server - Date.now() });
  },
}));

export const serverNow = () => Date.now() + useClock.getState().offsetMs;

let following = false;

/** Follows the server's clock: it sends `clock` on every connect. */
export function startClockSync(): void {
  if (following) return;
  following = true;
  getSocket().on('clock', ({ serverTime }) => useClock.getState().setServerTime(serverTime));
}
