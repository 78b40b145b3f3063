import { create } from 'zustand';
import type { PublicUser, SessionView, SignInView } from '../../contract/auth';
import { ApiError, apiGet, apiSend, ensureCsrfToken, resetCsrfToken } from '../api/client';
import { getSocket } from '../live/socket';
import { toast } from './toast';

const STORAGE_KEY = 'wcp.user';

function storedUser(): PublicUser | null {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    return raw ? (JSON.parse(raw) as PublicUser) : null;
  } catch {
    return null;
  }
}

function remember(user: PublicUser | null) {
  try {
    if (user) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(user));
    else sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage can be unavailable (private mode); the server session is what counts.
  }
}

/**
 * The user of a sign-in answer. Its notices (e.g. held numbers released because the account was
 * at a competition's per-person cap) are told now and never stored.
 */
function takeNotices({ notices, ...user }: SignInView): PublicUser {
  // One toast at a time: every notice in it.
  if (notices?.length)
    toast({ title: 'Some numbers were released', description: notices.join(' '), variant: 'destructive' });
  return user;
}

let refreshing: Promise<PublicUser | null> | undefined;
/** Bumped whenever this tab signs in or out, so an answer to an older check cannot undo it. */
let generation = 0;
const signedInOrOut = () => {
  generation++;
  refreshing = undefined;
};

export interface AuthState {
  user: PublicUser | null;
  /** 'loading' until the first answer from GET /api/session. */
  status: 'loading' | 'ready';
  refresh: () => Promise<PublicUser | null>;
  login: (username: string, password: string) => Promise<PublicUser>;
  register: (input: Record<string, unknown>) => Promise<PublicUser>;
  logout: () => Promise<void>;
  setUser: (user: PublicUser | null) => void;
}

/**
 * Who is signed in. The copy in session storage shows straight away while GET /api/session
 * confirms it; a failed check counts as signed out (spec).
 */
export const useAuth = create<AuthState>()((set, get) => ({
  user: storedUser(),
  status: 'loading',
  setUser: (user) => {
    remember(user);
    set({ user, status: 'ready' });
  },
  refresh: () => {
    // Callers that ask at the same moment (navigation, focus, a page's own check) share one request.
    refreshing ??= (async () => {
      const asked = generation;
      let user: PublicUser | null = null;
      try {
        // Not GET /api/user: its 401 for a visitor is logged by the browser as an error.
        ({ user } = await apiGet<SessionView>('/api/session'));
      } catch (err) {
        if (!(err instanceof ApiError)) {
          // Offline or timed out: keep what we had rather than signing the person out.
          set({ status: 'ready' });
          return get().user;
        }
      }
      if (asked !== generation) return get().user; // signed in or out meanwhile: that answer wins
      remember(user);
      set({ user, status: 'ready' });
      return user;
    })();
    const current = refreshing;
    void current.finally(() => {
      if (refreshing === current) refreshing = undefined;
    });
    return current;
  },
  login: async (username, password) => {
    await ensureCsrfToken();
    const user = takeNotices(await apiSend<SignInView>('POST', '/api/login', { username, password }));
    signedInOrOut();
    resetCsrfToken(); // the session (and its token) was renewed
    remember(user);
    set({ user, status: 'ready' });
    return user;
  },
  register: async (input) => {
    await ensureCsrfToken();
    const user = takeNotices(await apiSend<SignInView>('POST', '/api/register', input));
    signedInOrOut();
    resetCsrfToken();
    remember(user);
    set({ user, status: 'ready' });
    return user;
  },
  logout: async () => {
    try {
      await apiSend('POST', '/api/logout');
    } finally {
      signedInOrOut();
      resetCsrfToken();
      remember(null);
      set({ user: null, status: 'ready' });
    }
  },
}));

let syncing = false;

/**
 * Follows sign-ins and sign-outs made elsewhere (another tab, an admin ending the session): the
 * server pushes `session:ended` to this session's sockets, so check who is signed in now.
 */
export function startAuthSync(): void {
  if (syncing) return;
  syncing = true;
  getSocket().on('session:ended', () => void useAuth.getState().refresh());
}

export const isAdmin = (user: PublicUser | null) => user?.role === 'admin';
export const displayName = (user: PublicUser) => user.firstName?.trim() || user.username;
