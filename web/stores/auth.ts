import { create } from 'zustand';
import type { AUTH_ROUTES } from '../../contract/apiAuth';
import type { PublicUser, RegisterInput, SignInView } from '../../contract/auth';
import { selfExcludedMessage } from '../../contract/protection';
import { call } from '../api/call';
import { ApiError, ensureCsrfToken, resetCsrfToken } from '../api/client';
import { getSocket, reconnectSocket } from '../live/socket';
import { pageSeed } from '../ssr/seed';
import { forgetReferralCode, keptReferralCode } from './referral';
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
function takeNotices({ notices, selfExcludedUntil, ...user }: SignInView): PublicUser {
  // One toast at a time: every notice in it. On a break the guest's holds all went, so there are
  // no other notices then.
  if (selfExcludedUntil)
    toast({ title: 'Taking a break', description: selfExcludedMessage(selfExcludedUntil) });
  else if (notices?.length)
    toast({ title: 'Some numbers were released', description: notices.join(' '), variant: 'destructive' });
  return user;
}

let refreshing: Promise<PublicUser | null> | undefined;
/** Bumped whenever this tab signs in or out, so an answer to an older check cannot undo it. */
let generation = 0;
/**
 * The session behind this tab's cookie is another one now: its CSRF token is stale, and the socket
 * connects again once the new session's token is fetched (a signed-out visitor's creates one).
 */
const sessionChanged = () => {
  resetCsrfToken();
  reconnectSocket();
};
const signedInOrOut = () => {
  generation++;
  refreshing = undefined;
  sessionChanged();
};

/** The person went back from the code step: the sign-in that asked for it ends with this. */
export const SIGN_IN_NOT_FINISHED = 'Sign-in was not finished.';

/** Whether a sign-in failed only because the person went back from the code step (nothing to report). */
export const isSignInCancelled = (err: unknown) =>
  err instanceof Error && err.message === SIGN_IN_NOT_FINISHED;

/** The open code step: settles the login() that is waiting for it. */
let codeStep: { resolve: (view: SignInView) => void; reject: (err: Error) => void } | undefined;

export interface AuthState {
  user: PublicUser | null;
  /** The password was right and the account has two-factor sign-in: its code is awaited. */
  twoFactorStep: boolean;
  /** Sends the code (or a recovery code); a wrong one throws, and the step stays open. */
  submitTwoFactorCode: (code: string) => Promise<void>;
  /** Leaves the code step; the waiting login() fails with SIGN_IN_NOT_FINISHED. */
  cancelTwoFactor: () => void;
  /** 'loading' until the first answer from GET /api/session. */
  status: 'loading' | 'ready';
  refresh: () => Promise<PublicUser | null>;
  login: (username: string, password: string) => Promise<PublicUser>;
  register: (input: Record<string, unknown>) => Promise<PublicUser>;
  logout: () => Promise<void>;
  setUser: (user: PublicUser | null) => void;
}

// A server-rendered page carries the session's answer it was rendered with (web/ssr/seed.ts): the
// server renders only for visitors, so it says who is signed in (nobody) better than the copy.
const seeded = pageSeed()?.session;

/**
 * Who is signed in. The copy in session storage shows straight away while GET /api/session
 * confirms it; a failed check counts as signed out (spec).
 */
export const useAuth = create<AuthState>()((set, get) => ({
  user: seeded ? seeded.user : storedUser(),
  status: seeded ? 'ready' : 'loading',
  twoFactorStep: false,
  submitTwoFactorCode: async (code) => {
    const view = await call<typeof AUTH_ROUTES.loginTwoFactor>(
      { method: 'POST', path: '/api/login/2fa' },
      { body: { code } },
    );
    const step = codeStep;
    codeStep = undefined;
    set({ twoFactorStep: false });
    step?.resolve(view);
  },
  cancelTwoFactor: () => {
    const step = codeStep;
    codeStep = undefined;
    set({ twoFactorStep: false });
    step?.reject(new Error(SIGN_IN_NOT_FINISHED));
  },
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
        ({ user } = await call<typeof AUTH_ROUTES.session>({ method: 'GET', path: '/api/session' }));
      } catch (err) {
        if (!(err instanceof ApiError)) {
          // Offline or timed out: keep what we had rather than signing the person out.
          set({ status: 'ready' });
          return get().user;
        }
      }
      if (asked !== generation) return get().user; // signed in or out meanwhile: that answer wins
      // Signed in or out elsewhere (another tab, an admin): this tab follows the cookie.
      if (user?.id !== get().user?.id) sessionChanged();
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
    const answer = await call<typeof AUTH_ROUTES.login>(
      { method: 'POST', path: '/api/login' },
      {
        body: {
          username,
          password,
        },
      },
    );
    // With two-factor sign-in the same call finishes once the code step does (SignInForm shows it).
    const view =
      'twoFactorRequired' in answer
        ? await new Promise<SignInView>((resolve, reject) => {
            codeStep?.reject(new Error(SIGN_IN_NOT_FINISHED));
            codeStep = { resolve, reject };
            set({ twoFactorStep: true });
          })
        : answer;
    const user = takeNotices(view);
    signedInOrOut();
    remember(user);
    set({ user, status: 'ready' });
    return user;
  },
  register: async (input) => {
    await ensureCsrfToken();
    const user = takeNotices(
      await call<typeof AUTH_ROUTES.register>(
        { method: 'POST', path: '/api/register' },
        {
          // The referral link's code, kept since the visitor landed (stores/referral.ts).
          body: { referralCode: keptReferralCode(), ...input } as RegisterInput,
        },
      ) /* the form's values: the server's schema checks them */,
    );
    forgetReferralCode();
    signedInOrOut();
    remember(user);
    set({ user, status: 'ready' });
    return user;
  },
  logout: async () => {
    try {
      await call<typeof AUTH_ROUTES.logout>({ method: 'POST', path: '/api/logout' });
    } finally {
      signedInOrOut();
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
