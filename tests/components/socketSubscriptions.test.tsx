import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PublicUser } from '../../contract/auth';
import { serverNow, startClockSync } from '../../web/live/clock';
import { startAuthSync, useAuth } from '../../web/stores/auth';
import { jsonResponse, startFakeRealtime, stubApi } from './fakeApi';
import { fakeSocket, push } from './fakeSocket';

vi.mock('socket.io-client', () => import('./fakeSocket'));

const pat = { id: 7, username: 'pat', role: 'user' } as PublicUser;

// The stores' listeners reach the (mocked) socket once it has loaded, as in the app.
beforeAll(startFakeRealtime);

describe('stores subscribe to the socket themselves', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    useAuth.setState({ user: null, status: 'loading' });
  });

  it('checks who is signed in when the server says the session ended (signed out in another tab)', async () => {
    useAuth.setState({ user: pat, status: 'ready' });
    const fetchMock = stubApi((_method, path) =>
      path === '/api/session' ? jsonResponse(200, { user: null }) : undefined,
    );
    startAuthSync();
    fakeSocket.calls = [];
    push('session:ended');
    await vi.waitFor(() => expect(useAuth.getState().user).toBeNull());
    expect(fetchMock).toHaveBeenCalledWith('/api/session', expect.anything());
    // Someone else now (nobody): the socket connects again with the cookie as it is now, once the
    // token of the session behind it (a new guest one) is fetched: the old token is stale.
    await vi.waitFor(() => expect(fakeSocket.calls).toEqual(['disconnect', 'connect']));
    expect(fetchMock.mock.calls.map(([path]) => path)).toEqual(['/api/session', '/api/csrf-token']);
  });

  it('connects the socket again after signing in, once the answer (and its new cookie) is in and the new token fetched', async () => {
    const log: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (path: string) => {
        log.push(`${path}, socket calls so far: ${fakeSocket.calls.join(' ')}`);
        if (path === '/api/csrf-token') return jsonResponse(200, { csrfToken: 'token' });
        return jsonResponse(200, pat); // POST /api/login
      }),
    );
    fakeSocket.calls = [];
    await useAuth.getState().login('pat', 'secret123');
    await vi.waitFor(() => expect(fakeSocket.calls).toEqual(['disconnect', 'connect']));
    // The socket dropped after the login's answer and connected after the new session's token.
    expect(log).toEqual([
      '/api/login, socket calls so far: ',
      '/api/csrf-token, socket calls so far: disconnect',
    ]);
  });

  it("after signing out, the server's drop of the old socket does not reconnect it before the new session exists", async () => {
    useAuth.setState({ user: pat, status: 'ready' });
    let answerToken: () => void = () => undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (path: string) => {
        if (path === '/api/logout') {
          // The server ends the session's sockets while it answers (session.ended).
          push('disconnect', 'io server disconnect');
          return jsonResponse(200, { ok: true });
        }
        // The new guest session's token comes late: after the 250 ms of the drop's own retry.
        return new Promise<Response>((resolve) => {
          answerToken = () => resolve(jsonResponse(200, { csrfToken: 'guest' }));
        });
      }),
    );
    fakeSocket.calls = [];
    // The drop's retry is a 250 ms timer (web/live/socket.ts): the clock is moved past it.
    vi.useFakeTimers();
    try {
      await useAuth.getState().logout();
      await vi.advanceTimersByTimeAsync(400);
      expect(fakeSocket.calls).toEqual(['disconnect']);
    } finally {
      vi.useRealTimers();
    }
    answerToken();
    await vi.waitFor(() => expect(fakeSocket.calls).toEqual(['disconnect', 'connect']));
    expect(useAuth.getState().user).toBeNull();
  });

  it("keeps countdowns on the server's clock", () => {
    startClockSync();
    push('clock', { serverTime: new Date(Date.now() + 60_000).toISOString() });
    expect(serverNow() - Date.now()).toBeGreaterThan(59_000);
  });
});
