import { afterEach, describe, expect, it, vi } from 'vitest';
import { useAuth } from '../../web/stores/auth';
import { useToast } from '../../web/stores/toast';
import { publicUser } from './users';

const pat = publicUser();

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('useAuth store', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    useAuth.setState({ user: null, status: 'loading' });
  });

  it('shares one GET /api/session between callers asking at the same moment', async () => {
    const fetchMock = vi.fn(async () => json(200, { user: pat }));
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
        if (url === '/api/session') return new Promise<Response>((resolve) => (answerOldCheck = resolve));
        if (url === '/api/csrf-token') return json(200, { csrfToken: 't' });
        return json(200, pat); // POST /api/login
      }),
    );
    const oldCheck = useAuth.getState().refresh(); // in flight: asked while still signed out
    await useAuth.getState().login('pat', 'secret123');
    expect(useAuth.getState().user).toEqual(pat);
    answerOldCheck(json(200, { user: null }));
    await oldCheck;
    expect(useAuth.getState().user).toEqual(pat);
  });

  it('tells a customer signing in during a break that they are taking one, and keeps it out of the user', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url === '/api/csrf-token'
          ? json(200, { csrfToken: 't' })
          : json(200, { ...pat, selfExcludedUntil: '2031-05-27T23:30:00.000Z' }),
      ),
    );
    await useAuth.getState().login('pat', 'secret123');
    expect(useAuth.getState().user).toEqual(pat);
    expect(useToast.getState().current).toMatchObject({
      title: 'Taking a break',
      description: "You're taking a break until 28 May 2031. You can't enter until then.",
    });
  });
});
