import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PublicUser } from '../../contract/auth';
import { useAuth } from '../../web/stores/auth';

const pat: PublicUser = {
  id: 7,
  username: 'pat',
  email: 'pat@example.co.uk',
  firstName: 'Pat',
  lastName: null,
  phoneNumber: '07700900123',
  role: 'user',
  siteCredit: 0,
  emailVerified: true,
  createdAt: '2026-11-01T10:00:00.000Z',
};

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('useAuth store', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    useAuth.setState({ user: null, status: 'loading' });
  });

  it('shares one GET /api/user between callers asking at the same moment', async () => {
    const fetchMock = vi.fn(async () => json(200, pat));
    vi.stubGlobal('fetch', fetchMock);
    const [a, b, c] = await Promise.all([
      useAuth.getState().refresh(),
      useAuth.getState().refresh(),
      useAuth.getState().refresh(),
    ]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect([a, b, c]).toEqual([pat, pat, pat]);
    // A later call asks again.
    await useAuth.getState().refresh();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('does not let a check that started before signing in undo the sign-in', async () => {
    let answerOldCheck: (r: Response) => void = () => undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url === '/api/user') return new Promise<Response>((resolve) => (answerOldCheck = resolve));
        if (url === '/api/csrf-token') return json(200, { csrfToken: 't' });
        return json(200, pat); // POST /api/login
      }),
    );
    const oldCheck = useAuth.getState().refresh(); // in flight: asked while still signed out
    await useAuth.getState().login('pat', 'secret123');
    expect(useAuth.getState().user).toEqual(pat);
    answerOldCheck(json(401, { message: 'Not signed in', code: 'unauthenticated' }));
    await oldCheck;
    expect(useAuth.getState().user).toEqual(pat);
  });
});
