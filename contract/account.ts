import * as v from 'valibot';
import { EMAIL_RULES, PASSWORD_RULES, withPasswordConfirmation } from './auth';

// Account recovery, e-mail confirmation, security and privacy requests with their messages
// (docs/product.md#account-security). The server validates with these; the forms reuse them.

export const RESET_LINK_INVALID = 'This reset link is invalid or has expired.';
/** The "this wasn't me" link of the two-factor e-mail, when it cannot act. */
export const NOT_ME_LINK_INVALID =
  'This link is invalid or has expired, or two-factor sign-in has changed since it was sent. ' +
  'Contact us if you still cannot get into your account.';
export const VERIFY_LINK_INVALID = 'This confirmation link is invalid or has expired.';
export const WRONG_PASSWORD = 'Your current password is incorrect.';
/** E-mail change and account deletion ask for the password too. */
export const PASSWORD_INCORRECT = 'That password is incorrect.';
export const ALREADY_VERIFIED = 'Your e-mail address is already confirmed.';
export const SAME_EMAIL = 'That is already your e-mail address.';
export const EMAIL_IN_USE = 'Another account already uses that e-mail address.';
/** The same answer whether or not an account has the address (no account enumeration). */
export const FORGOT_PASSWORD_SENT =
  'If an account uses that e-mail address, we have sent it a link to reset the password. The link works for 1 hour.';
/** What the customer types to confirm deleting their account. */
export const DELETE_CONFIRMATION_PHRASE = 'DELETE';

const token = (message: string) =>
  v.pipe(v.string(message), v.trim(), v.nonEmpty(message), v.maxLength(200, message));
const currentPassword = (message: string) =>
  v.pipe(v.string(message), v.nonEmpty(message), v.maxLength(200, message));

/** POST /api/password/forgot. */
export const ForgotPasswordSchema = v.object({ email: EMAIL_RULES });

/** POST /api/password/reset: the new password follows the registration rules. */
export const ResetPasswordSchema = v.object({ token: token(RESET_LINK_INVALID), password: PASSWORD_RULES });

/** POST /api/account/password. */
export const ChangePasswordSchema = v.object({
  currentPassword: currentPassword('Please enter your current password'),
  newPassword: PASSWORD_RULES,
});

/** POST /api/account/email: the change takes effect when the new address confirms it. */
export const ChangeEmailSchema = v.object({
  email: EMAIL_RULES,
  password: currentPassword('Please enter your password'),
});

/** POST /api/verify-email. */
export const VerifyEmailSchema = v.object({ token: token(VERIFY_LINK_INVALID) });

/** DELETE /api/account. */
export const DeleteAccountSchema = v.object({ password: currentPassword('Please enter your password') });

/** DELETE /api/account/sessions/:id. */
export const SessionIdParamSchema = v.object({
  id: v.pipe(v.string(), v.regex(/^[0-9a-f]{32}$/, 'Session not found')),
});

/** Form-side checks layered on the server's rules. */
/** POST /api/account/2fa/not-me: the e-mailed link's token and a new password. */
export const TwoFactorNotMeSchema = v.object({ token: token(NOT_ME_LINK_INVALID), password: PASSWORD_RULES });

export const TwoFactorNotMeFormSchema = withPasswordConfirmation(TwoFactorNotMeSchema.entries, 'password');

export const ResetPasswordFormSchema = withPasswordConfirmation(ResetPasswordSchema.entries, 'password');

export const ChangePasswordFormSchema = withPasswordConfirmation(ChangePasswordSchema.entries, 'newPassword');

export const DeleteAccountFormSchema = v.object({
  ...DeleteAccountSchema.entries,
  confirmation: v.pipe(
    v.string(),
    v.trim(),
    v.literal(DELETE_CONFIRMATION_PHRASE, `Please type ${DELETE_CONFIRMATION_PHRASE} to confirm`),
  ),
});

/** One signed-in session of the customer, as GET /api/account/sessions lists it. */
export interface AccountSessionView {
  /** Not the session's key: a hash of it, safe to show and to send back. */
  id: string;
  /** The browser and system, 'Chrome on Android' (null: not known). */
  device: string | null;
  /** The area a trusted proxy placed the sign-in in ('Bristol'), when it told us. */
  area: string | null;
  /** How the list shows the session: 'Chrome on Android, Bristol area'. */
  label: string;
  address: string | null;
  signedInAt: string | null;
  lastSeenAt: string | null;
  /** The session this request came from. */
  current: boolean;
}

/** A plain confirmation answer. */
export interface AccountMessageView {
  message: string;
}

/** POST /api/verify-email: what was confirmed, and the welcome credit it paid (pounds, 0 if none). */
export interface VerifyEmailView {
  message: string;
  email: string;
  welcomeCredit: number;
}
