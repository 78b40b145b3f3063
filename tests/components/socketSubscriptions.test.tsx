import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PublicUser } from '../../contract/auth';
import { serverNow, startClockSync } from '../../web/live/clock';
import { startAuthSync, useAuth } from '../../web/stores/auth';
import { jsonResponse, startFakeRealtime, stubApi } from './fakeApi';
import { push } from './fakeSocket';

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
    push('session:ended');
    await vi.waitFor(() => expect(useAuth.getState().user).toBeNull());
    expect(fetchMock).toHaveBeenCalledWith('/api/session', expect.anything());
  });

  it("keeps countdowns on the server's clock", () => {
    startClockSync();
    push('clock', { serverTime: new Date(Date.now() + 60_000).toISOString() });
    expect(serverNow() - Date.now()).toBeGreaterThan(59_000);
  });
});
