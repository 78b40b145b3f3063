import { beforeEach, describe, expect, it, vi } from 'vitest';

// socket.io-client loads after the first paint (web/live/socket.ts): what the stores do with the
// socket before it has loaded (listen, stop listening, emit) must reach it, in order, once it has.

const calls: string[] = [];
const fake = {
  connected: false,
  on: vi.fn((event: string) => calls.push(`on ${event}`)),
  off: vi.fn((event: string) => calls.push(`off ${event}`)),
  emit: vi.fn((event: string) => calls.push(`emit ${event}`)),
  connect: vi.fn(() => calls.push('connect')),
};
const io = vi.fn(() => fake);
vi.mock('socket.io-client', () => ({ io }));
vi.mock('../../web/api/client', () => ({ ensureCsrfToken: vi.fn(async () => 'token') }));

describe('the socket before socket.io-client has loaded', () => {
  beforeEach(() => {
    calls.length = 0;
    vi.resetModules();
    io.mockClear();
  });

  it('keeps listeners and emits, and hands them to the socket in order before it connects', async () => {
    const { getSocket, startRealtime } = await import('../../web/live/socket');
    const onClock = vi.fn();
    const ack = vi.fn();
    getSocket().on('clock', onClock);
    getSocket().on('session:ended', () => {});
    getSocket().off('session:ended');
    getSocket().emit('competition:watch', { competitionId: 7 }, ack);
    expect(getSocket().connected).toBe(false);
    expect(io).not.toHaveBeenCalled();

    await startRealtime();
    expect(io).toHaveBeenCalledTimes(1);
    expect(calls).toEqual([
      'on disconnect',
      'on clock',
      'on session:ended',
      'off session:ended',
      'emit competition:watch',
      'connect',
    ]);
    expect(fake.on).toHaveBeenCalledWith('clock', onClock);
    expect(fake.emit).toHaveBeenCalledWith('competition:watch', { competitionId: 7 }, ack);

    // Loaded: calls go straight to the socket, and it is made once however often it is started.
    getSocket().emit('competition:unwatch', { competitionId: 7 });
    expect(calls.at(-1)).toBe('emit competition:unwatch');
    fake.connected = true;
    expect(getSocket().connected).toBe(true);
    await startRealtime();
    expect(io).toHaveBeenCalledTimes(1);
  });
});
