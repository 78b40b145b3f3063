import { Socket as EngineSocket, transports } from 'engine.io';
import { Adapter } from 'socket.io-adapter';
import { describe, expect, it } from 'vitest';
import { switchRealtimeFastPaths } from '../../fastpaths/realtime';

// FAST_PATHS (fastpaths/README.md): on replaces methods of the libraries' prototypes, off puts
// back the very methods the libraries ship, so a server started with it off runs them unchanged.
describe('the realtime fast-path switch', () => {
  const methods = () => [
    (transports.websocket.prototype as unknown as Record<string, unknown>)._canSendPreEncodedFrame,
    EngineSocket.prototype.write,
    Adapter.prototype.broadcast,
  ];

  it('replaces the shipped methods when on and restores each of them when off', () => {
    const shipped = methods();
    expect(shipped.every((m) => typeof m === 'function')).toBe(true);
    switchRealtimeFastPaths(true);
    methods().forEach((m, i) => {
      expect(m).not.toBe(shipped[i]);
    });
    switchRealtimeFastPaths(false);
    methods().forEach((m, i) => {
      expect(m).toBe(shipped[i]);
    });
    // On again after off: the same fast paths, not a patch over a patch.
    switchRealtimeFastPaths(true);
    const again = methods();
    switchRealtimeFastPaths(true);
    expect(methods()).toEqual(again);
    switchRealtimeFastPaths(false);
  });
});
