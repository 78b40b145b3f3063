import * as v from 'valibot';
import { DATE_OF_BIRTH_RULES } from './age';
import type { DeliveryAddress } from './claims';
import { ReferralCodeSchema } from './referrals';

// Registration, login and profile rules and their messages (docs/product.md#accounts,
// docs/product.md#profile). The server validates with these; the forms reuse them.

export const USERNAME_RULES = v.pipe(
  v.string('Username is required'),
  v.trim(),
  v.nonEmpty('Username is required'),
  v.minLength(3, 'Username must be at least 3 characters'),
  v.maxLength(64, 'Username must be at most 64 characters'),
  // Usernames may appear on public entry lists, and login accepts a username or an email:
  // keeping '@' out of usernames keeps both unambiguous.
  v.regex(/^[A-Za-z0-9._-]+$/, 'Username can only contain letters, numbers, dots, hyphens and underscores'),
);

export const EMAIL_RULES = v.pipe(
  v.string('Please enter a valid email address'),
  v.trim(),
  v.toLowerCase(),
  v.email('Please enter a valid email address'),
  v.maxLength(254, 'Please enter a valid email address'),
);

export const PASSWORD_RULES = v.pipe(
  v.string('Password is required'),
  v.nonEmpty('Password is required'),
  v.minLength(6, 'Password must be at least 6 characters'),
  v.maxLength(200, 'Password must be at most 200 characters'),
);

export const PHONE_RULES = v.pipe(
  v.string('Phone number is required'),
  v.trim(),
  v.nonEmpty('Phone number is required'),
  v.regex(/^[0-9+\-\s()]+$/, 'Please enter a valid phone number'),
  v.minLength(10, 'Phone number must be at least 10 digits'),
  v.maxLength(15, 'Phone number must be at most 15 digits'),
);

const optionalName = (label: string) =>
  v.optional(
    v.nullable(
      v.pipe(
        v.string(`${label} must be text`),
        v.trim(),
        v.maxLength(100, `${label} must be at most 100 characters`),
      ),
    ),
  );

/** The consent box's words, the same at registration and in My Account > Privacy. */
export const MARKETING_CONSENT_LABEL = 'Send me e-mails about new competitions and offers';

const MARKETING_MESSAGE = 'Marketing e-mails must be on (true) or off (false)';

/** PUT /api/account/preferences. */
export const PreferencesSchema = v.object({ marketingEmails: v.boolean(MARKETING_MESSAGE) });
export type PreferencesInput = v.InferOutput<typeof PreferencesSchema>;

/** The answer of PUT /api/account/preferences. */
export interface PreferencesView {
  marketingEmails: boolean;
  /** When the choice was last made (ISO 8601); null if never. */
  marketingEmailsUpdatedAt: string | null;
}

/** POST /api/register. Unknown keys (role, siteCredit, id...) are dropped, never stored. */
export const RegisterSchema = v.object({
  username: USERNAME_RULES,
  email: EMAIL_RULES,
  password: PASSWORD_RULES,
  firstName: optionalName('First name'),
  lastName: optionalName('Last name'),
  phoneNumber: PHONE_RULES,
  /** YYYY-MM-DD; under 18 in the UK today is refused ('You must be 18 or over to enter.'). */
  dateOfBirth: DATE_OF_BIRTH_RULES,
  guestSessionId: v.optional(v.nullable(v.string())),
  ageConfirmation: v.literal(true, 'You must confirm you are 18 or over'),
  ukResidency: v.literal(true, 'You must be a UK resident to participate'),
  termsAgreement: v.literal(true, 'You must agree to the Terms and Conditions'),
  /** Marketing consent: unticked unless the customer ticks it. */
  marketingEmails: v.optional(v.boolean(MARKETING_MESSAGE), false),
  /** The referral code of the link the visitor arrived by (docs/product.md#referrals); unknown: ignored. */
  referralCode: ReferralCodeSchema,
});
export type RegisterInput = v.InferOutput<typeof RegisterSchema>;

/** POST /api/login: username or email. */
export const LoginSchema = v.object({
  username: v.pipe(v.string('Username is required'), v.trim(), v.nonEmpty('Username is required')),
  password: v.pipe(v.string('Password is required'), v.nonEmpty('Password is required')),
});
export type LoginInput = v.InferOutput<typeof LoginSchema>;

/** PUT /api/user/phone-number. */
export const PhoneNumberSchema = v.object({ phoneNumber: PHONE_RULES });

/** The signed-in user as the API returns it (never a password hash). */
export interface PublicUser {
  id: number;
  username: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  phoneNumber: string;
  /** Where a prize is delivered (My Profile, docs/draws.md#7-claiming-a-prize); null until given. */
  deliveryAddress: DeliveryAddress | null;
  role: 'user' | 'admin';
  /** Site credit balance in pounds. */
  siteCredit: number;
  /** Whether the customer agreed to marketing e-mails (off by default). */
  marketingEmails: boolean;
  /** Whether the current e-mail address has been confirmed (welcome credit waits for it). */
  emailVerified: boolean;
  /** YYYY-MM-DD; null until given (asked before the next purchase), then fixed. */
  dateOfBirth: string | null;
  /** When an admin checked the customer's age from a document (ISO 8601); null until then. */
  ageVerifiedAt: string | null;
  createdAt: string;
  /** Signs in with a code from an authenticator app as well as the password. */
  twoFactorEnabled: boolean;
  /** An admin who must turn on two-factor sign-in before using the back office (ADMIN_REQUIRE_2FA). */
  twoFactorSetupRequired: boolean;
}

/**
 * POST /api/login and /api/register: the user, plus what the sign-in changed that the customer
 * must be told (e.g. held numbers released because the account was at its per-person cap).
 */
export interface SignInView extends PublicUser {
  notices?: string[];
  /** The person is taking a break until then (their own or their mailbox's): told at sign-in. */
  selfExcludedUntil?: string;
}

/** GET /api/session: who is signed in; `user` is null for a visitor (never a 401). */
export interface SessionView {
  user: PublicUser | null;
}

/** POST /api/login for an account with two-factor sign-in: the password was right, now the code. */
export interface TwoFactorChallenge {
  twoFactorRequired: true;
}

const CODE_RULES = v.pipe(
  v.string('Enter the code from your authenticator app'),
  v.trim(),
  v.nonEmpty('Enter the code from your authenticator app'),
  v.maxLength(20, 'That code is too long'),
);

/** POST /api/login/2fa: a 6-digit code or a recovery code. */
export const TwoFactorCodeSchema = v.object({ code: CODE_RULES });

/** POST /api/account/2fa/enable (a 6-digit code) and /disable (or a recovery code): the password too. */
export const TwoFactorPasswordSchema = v.object({
  password: v.pipe(v.string('Password is required'), v.nonEmpty('Password is required')),
  code: CODE_RULES,
});

/** POST /api/account/2fa/setup: the new secret, as text and as a QR code for the app to scan. */
export interface TwoFactorSetupView {
  secret: string;
  otpauthUrl: string;
  /** An <svg> document. */
  qrSvg: string;
}

/** POST /api/account/2fa/enable: the ten recovery codes, shown this once. */
export interface TwoFactorEnabledView {
  recoveryCodes: string[];
}

/** A promo code as stored and typed (compared in upper case). */
export const PROMO_CODE_RULES = v.pipe(
  v.string('Enter a promo code'),
  v.regex(/^[A-Z0-9-]{3,32}$/, 'A promo code is 3 to 32 letters, numbers or hyphens'),
);

/** POST /api/account/promo-code. */
export const RedeemPromoCodeSchema = v.object({
  code: v.pipe(
    v.string('Enter a promo code'),
    v.trim(),
    v.toUpperCase(),
    v.nonEmpty('Enter a promo code'),
    PROMO_CODE_RULES,
  ),
});

/** The answer to a redeemed code: what was added and the new balance, in pounds. */
export interface PromoRedeemedView {
  amount: number;
  credit: number;
  description: string;
}

export interface CreditTransactionView {
  id: number;
  type: 'credit' | 'debit';
  /** Pounds, always positive; `type` gives the direction. */
  amount: number;
  description: string;
  createdAt: string;
}

/**
 * A form's fields plus confirmPassword, which must repeat the field `key`. The check runs once
 * those two are valid, even while other fields are not, and its message sits on confirmPassword.
 */
export function withPasswordConfirmation<TEntries extends v.ObjectEntries>(
  entries: TEntries,
  key: keyof TEntries & string,
) {
  const form = v.object({ ...entries, confirmPassword: v.string() });
  type Values = v.InferOutput<typeof form>;
  // valibot cannot type a path through a generic key; the check itself is plain.
  const matching = v.forward(
    v.partialCheck(
      [[key], ['confirmPassword']] as const,
      (input: Record<string, unknown>) => input[key] === input.confirmPassword,
      'Passwords do not match',
    ),
    ['confirmPassword'],
  ) as unknown as v.GenericPipeAction<Values, Values>;
  return v.pipe(form, matching);
}

/** Client-side form checks layered on the server's rules. */
export const RegisterFormSchema = withPasswordConfirmation(RegisterSchema.entries, 'password');

/** The auth page's sign-in form adds the length rules (spec: 3 / 6 characters). */
export const SignInFormSchema = v.object({
  username: v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty('Username is required'),
    v.minLength(3, 'Username must be at least 3 characters'),
  ),
  password: v.pipe(
    v.string(),
    v.nonEmpty('Password is required'),
    v.minLength(6, 'Password must be at least 6 characters'),
  ),
});

const requiredName = (message: string) =>
  v.pipe(v.string(message), v.trim(), v.nonEmpty(message), v.maxLength(100, message));

/**
 * The checkout dialog's registration form (docs/product.md#checkout): first and last name are
 * required there. It also asks for the phone number, which the server requires of every account.
 */
export const CheckoutRegisterFormSchema = withPasswordConfirmation(
  {
    ...RegisterSchema.entries,
    firstName: requiredName('First name is required'),
    lastName: requiredName('Last name is required'),
  },
  'password',
);
