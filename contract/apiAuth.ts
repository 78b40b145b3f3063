import { route } from './apiRoute';
import type { PublicUser, SessionView, SignInView, TwoFactorChallenge } from './auth';
import { LoginSchema, RegisterSchema, TwoFactorCodeSchema } from './auth';

type Ok = { ok: boolean };

/** Sign-in, sign-out and who is signed in (the first page load needs these; the rest of the account does not). */
export const AUTH_ROUTES = {
  register: route<SignInView>()({ method: 'POST', path: '/api/register', body: RegisterSchema }),
  login: route<SignInView | TwoFactorChallenge>()({ method: 'POST', path: '/api/login', body: LoginSchema }),
  loginTwoFactor: route<SignInView>()({ method: 'POST', path: '/api/login/2fa', body: TwoFactorCodeSchema }),
  logout: route<Ok>()({ method: 'POST', path: '/api/logout' }),
  user: route<PublicUser>()({ method: 'GET', path: '/api/user' }),
  session: route<SessionView>()({ method: 'GET', path: '/api/session' }),
};
