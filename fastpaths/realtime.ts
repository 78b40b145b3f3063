import type { MethodPatch } from './methodPatch';
import { sharedFramePatches } from './preEncodedFrames';
import { oneRoomBroadcastPatch } from './roomBroadcast';

const REALTIME_PATCHES: readonly MethodPatch[] = [...sharedFramePatches, oneRoomBroadcastPatch];

/**
 * Puts the Socket.IO fan-out fast paths on (FAST_PATHS=on) or takes them off, restoring the
 * libraries' own methods. Process-wide: they replace methods of engine.io's and
 * socket.io-adapter's prototypes, which every server of the process shares.
 */
export function switchRealtimeFastPaths(on: boolean): void {
  for (const patch of REALTIME_PATCHES) {
    if (on) patch.apply();
    else patch.revert();
  }
}
