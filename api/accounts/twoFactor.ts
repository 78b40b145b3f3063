import { createHash, randomInt } from 'node:crypto';
import type { Knex } from 'knex';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { TwoFactorSetupView } from '../../contract/auth';
import type { User } from '../../db/models';
import { adminNeedsTwoFactor } from '../platform/adminTwoFactor';
import type { AppDeps } from '../platform/context';
import { badRequest, conflict } from '../platform/errors';
import { createSecretBox } from '../platform/secretBox';
import { inUnitOfWork } from '../platform/unitOfWork';
import { waitPhrase } from './accountLimits';
import { verifyPassword } from './passwords';
import type { TwoFactorStatus } from './presenter';
import { tellTwoFactorOn } from './security/twoFactorUndo';
import { endUserSessions } from './userSessions';

// Two-factor sign-in with TOTP (RFC 6238: 6 digits, 30-second steps, SHA-1, what every
// authenticator app reads from the QR code) and ten single-use recovery codes. docs/security.md
// "Two-factor sign-in" explains the choices.

const PERIOD = 30;
/** One step either side, for clocks that drift a little. */
const WINDOW = 1;
const RECOVERY_CODES = 10;
/** Base32 without look-alikes' trouble: A-Z and 2-7, as the secrets use. */
const RECOVERY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
/** Wrong codes per account in ATTEMPT_WINDOW_SECONDS: 5 in 15 minutes leaves a 6-digit code safe. */
export const CODE_ATTEMPTS = 5;
const ATTEMPT_WINDOW_SECONDS = 900;

export const WRONG_CODE = 'That code is not correct. Check your authenticator app and try again.';
export const WRONG_PASSWORD = 'Your password is not correct.';
const ALREADY_ON = 'Two-factor sign-in is already on. Turn it off first to set it up again.';
const NOT_SET_UP = 'Start the two-factor setup first.';
const NOT_ON = 'Two-factor sign-in is not on.';

interface TwoFactorRow {
  userId: number;
  secretEncrypted: string;
  enabledAt: number | null;
  lastStep: number | null;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** What a typed code is compared as: no spaces or hyphens, upper case. */
const normalise = (code: string) => code.replace(/[\s-]/g, '').toUpperCase();
const isTotpShape = (code: string) => /^\d{6}$/.test(code);

function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 10; i++) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

const rowOf = (db: Knex, userId: number) =>
  db<TwoFactorRow>('twoFactor').where({ userId }).first() as Promise<TwoFactorRow | undefined>;

/** Whether the user signs in with a second factor. */
export async function hasTwoFactor(db: Knex, userId: number): Promise<boolean> {
  return Boolean((await rowOf(db, userId))?.enabledAt);
}

/** Of these users, those with two-factor sign-in on (the admin's user list). */
export async function usersWithTwoFactor(db: Knex, userIds: number[]): Promise<Set<number>> {
  if (!userIds.length) return new Set();
  const rows: Array<{ userId: number }> = await db('twoFactor')
    .whereIn('userId', userIds)
    .whereNotNull('enabledAt')
    .select('userId');
  return new Set(rows.map((r) => r.userId));
}

/** What presentUser shows of it. */
export async function twoFactorStatus(
  { db, config }: Pick<AppDeps, 'db' | 'config'>,
  user: User,
): Promise<TwoFactorStatus> {
  return {
    enabled: await hasTwoFactor(db, user.id),
    setupRequired: await adminNeedsTwoFactor(db, config, user),
  };
}

export type TwoFactorService = ReturnType<typeof createTwoFactor>;

/**
 * Checking a user's code: the app's TOTP or a recovery code, each accepted once, behind the
 * per-account attempt counter.
 */
function createCodeChecks(deps: AppDeps) {
  const box = createSecretBox(deps.config.twoFactorKey, 'totp-secret');
  const attempts = deps.rateLimits.limiter({
    name: 'two-factor',
    points: CODE_ATTEMPTS,
    durationSeconds: ATTEMPT_WINDOW_SECONDS,
    guesses: true,
  });

  /**
   * Counts one attempt at the user's code before it is checked, so parallel guesses cannot get
   * past the limit; a right code clears the count.
   */
  async function counted(userId: number, check: () => Promise<boolean>): Promise<boolean> {
    const key = `user:${userId}`;
    await attempts.hit(key, (s) => `Too many attempts at the code. Please try again in ${waitPhrase(s)}.`);
    const ok = await check();
    if (ok) await attempts.raw.delete(key);
    return ok;
  }

  /**
   * A 6-digit code from the app, accepted once: the step it belongs to is recorded with a
   * conditional UPDATE, so the same code (or an older one) is refused afterwards, even when two
   * requests carry it at the same moment.
   */
  async function acceptTotp(trx: Knex, row: TwoFactorRow, code: string, now: number): Promise<boolean> {
    const secret = Secret.fromBase32(box.open(row.secretEncrypted));
    const delta = TOTP.validate({ token: code, secret, period: PERIOD, window: WINDOW, timestamp: now });
    if (delta === null) return false;
    const step = TOTP.counter({ period: PERIOD, timestamp: now }) + delta;
    const claimed = await trx('twoFactor')
      .where({ userId: row.userId })
      .where((q) => q.whereNull('lastStep').orWhere('lastStep', '<', step))
      .update({ lastStep: step, updatedAt: now });
    return claimed === 1;
  }

  /** A recovery code, used up by the same conditional UPDATE that accepts it. */
  async function acceptRecoveryCode(trx: Knex, userId: number, code: string, now: number): Promise<boolean> {
    const used = await trx('twoFactorRecoveryCodes')
      .where({ userId, codeHash: sha256(code) })
      .whereNull('usedAt')
      .update({ usedAt: now });
    return used > 0;
  }

  /** The app's code or, where allowed, a recovery code. */
  async function acceptCode(
    trx: Knex,
    row: TwoFactorRow,
    typed: string,
    allowRecovery: boolean,
    now: number,
  ) {
    const code = normalise(typed);
    if (isTotpShape(code)) return acceptTotp(trx, row, code, now);
    return allowRecovery && code.length === 10 && acceptRecoveryCode(trx, row.userId, code, now);
  }

  return { box, counted, acceptCode };
}

/** The re-typed password, which counts as an attempt like a code (counted() runs this). */
async function checkPassword(user: User, password: string): Promise<void> {
  if (!(await verifyPassword(password, user.passwordHash))) throw badRequest(WRONG_PASSWORD);
}

/** A new set of recovery codes replaces the old, stored only as hashes; returned this once. */
async function issueRecoveryCodes(trx: Knex, userId: number, now: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
  await trx('twoFactorRecoveryCodes').where({ userId }).delete();
  await trx('twoFactorRecoveryCodes').insert(
    codes.map((c) => ({ userId, codeHash: sha256(normalise(c)), usedAt: null, createdAt: now })),
  );
  return codes;
}

/** One per app: its attempt counter must be shared by every route that checks a code. */
export function createTwoFactor(deps: AppDeps) {
  const { db, config } = deps;
  const { box, counted, acceptCode } = createCodeChecks(deps);

  const totpOf = (user: Pick<User, 'username'>, secret: Secret) =>
    new TOTP({ issuer: config.siteName, label: user.username, secret, period: PERIOD });

  return {
    /**
     * Starts (or restarts) setting up: a new secret, stored encrypted and not yet in force, and
     * what the authenticator app needs to read it.
     */
    async setup(user: User, now = Date.now()): Promise<TwoFactorSetupView> {
      const secret = new Secret({ size: 20 });
      await inUnitOfWork(deps, async ({ trx }) => {
        const row = (await trx('twoFactor').where({ userId: user.id }).first()) as TwoFactorRow | undefined;
        if (row?.enabledAt) throw conflict(ALREADY_ON);
        const values = {
          secretEncrypted: box.seal(secret.base32),
          enabledAt: null,
          lastStep: null,
          updatedAt: now,
        };
        if (row) await trx('twoFactor').where({ userId: user.id }).update(values);
        else await trx('twoFactor').insert({ userId: user.id, ...values, createdAt: now });
      });
      const otpauthUrl = totpOf(user, secret).toString();
      const qrSvg = await QRCode.toString(otpauthUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
      return { secret: secret.base32, otpauthUrl, qrSvg };
    },

    /**
     * Turns it on once the user gives their password and proves their app has the secret, and
     * issues the recovery codes, returned this once and stored only as hashes. Whoever holds only
     * the cookie cannot: every other session ends, and the account's address is told, with a
     * "this wasn't me" link (security/twoFactorUndo.ts).
     */
    async enable(
      user: User,
      password: string,
      code: string,
      sessionKey?: string,
      now = Date.now(),
    ): Promise<string[]> {
      const row = await rowOf(db, user.id);
      if (!row) throw conflict(NOT_SET_UP);
      if (row.enabledAt) throw conflict(ALREADY_ON);
      const codes = await inUnitOfWork(deps, async ({ trx, emit }) => {
        const ok = await counted(user.id, async () => {
          await checkPassword(user, password);
          return acceptCode(trx, row, code, false, now);
        });
        if (!ok) throw badRequest(WRONG_CODE);
        const enabled = await trx('twoFactor')
          .where({ userId: user.id })
          .whereNull('enabledAt')
          .update({ enabledAt: now, updatedAt: now });
        if (enabled !== 1) throw conflict(ALREADY_ON);
        const codes = await issueRecoveryCodes(trx, user.id, now);
        // This session's sockets reconnect, so an admin now joins the admins room.
        if (sessionKey) emit('session.ended', { sessionKey });
        return codes;
      });
      await endUserSessions(deps, user.id, { signOut: true, except: sessionKey });
      await tellTwoFactorOn(deps, user, now);
      return codes;
    },

    /** Turns it off, given the password and a current code (or a recovery code). */
    async disable(
      user: User,
      password: string,
      code: string,
      sessionKey?: string,
      now = Date.now(),
    ): Promise<void> {
      const row = await rowOf(db, user.id);
      if (!row?.enabledAt) throw conflict(NOT_ON);
      await inUnitOfWork(deps, async ({ trx, emit }) => {
        const ok = await counted(user.id, async () => {
          await checkPassword(user, password);
          return acceptCode(trx, row, code, true, now);
        });
        if (!ok) throw badRequest(WRONG_CODE);
        await trx('twoFactorRecoveryCodes').where({ userId: user.id }).delete();
        await trx('twoFactor').where({ userId: user.id }).delete();
        // Sockets reconnect and are judged again (an admin may now owe the setup).
        if (sessionKey) emit('session.ended', { sessionKey });
      });
    },

    /** The second step of signing in: whether `code` is the user's. */
    async verifySignIn(userId: number, code: string, now = Date.now()): Promise<boolean> {
      const row = await rowOf(db, userId);
      if (!row?.enabledAt) return false;
      return inUnitOfWork(deps, ({ trx }) => counted(userId, () => acceptCode(trx, row, code, true, now)));
    },

    /** How many unused recovery codes the user has left. */
    async recoveryCodesLeft(userId: number): Promise<number> {
      const [row] = await db('twoFactorRecoveryCodes')
        .where({ userId })
        .whereNull('usedAt')
        .count({ n: '*' });
      return Number(row?.n ?? 0);
    },
  };
}
