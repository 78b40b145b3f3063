/**
 * A stand-in for the Socket.IO client, shared by the component tests. Use it as the module:
 *
 *   vi.mock('socket.io-client', () => import('./fakeSocket'));
 *
 * It records the listeners the stores register so a test can `push` server events, answers
 * `competition:watch` with `fakeSocket.snapshot`, and counts the watches (a resync is a new watch).
 * The test file imports `fakeSocket` and `push` from here too: one module instance, one state.
 */
type Listener = (payload?: unknown) => void;

export const fakeSocket = {
  listeners: new Map<string, Listener[]>(),
  snapshot: undefined as unknown,
  watches: 0,
  /** Calls of connect() and disconnect(), in order: a reconnect is 'disconnect', 'connect'. */
  calls: [] as Array<'connect' | 'disconnect'>,
};

export const io = () => ({
  connected: false,
  active: false,
  disconnect() {
    this.active = false;
    fakeSocket.calls.push('disconnect');
  },
  on: (event: string, listener: Listener) => {
    fakeSocket.listeners.set(event, [...(fakeSocket.listeners.get(event) ?? []), listener]);
  },
  off: () => undefined,
  emit: (event: string, _payload?: unknown, ack?: (answer: unknown) => void) => {
    if (event !== 'competition:watch') return;
    fakeSocket.watches++;
    ack?.({ ok: true, snapshot: fakeSocket.snapshot });
  },
  connect() {
    this.active = true;
    fakeSocket.calls.push('connect');
  },
});

/** Delivers a server event to every listener registered for it. */
export function push(event: string, payload?: unknown): void {
  for (const listener of fakeSocket.listeners.get(event) ?? []) listener(payload);
}
