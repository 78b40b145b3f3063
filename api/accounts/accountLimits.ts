import type { LoginLimitSettings, RegistrationLimitSettings } from '../platform/config';
import { isOverLimit, type Limiter, type RateLimits, tooManyRequests } from '../platform/rateLimits';

// Sign-in and sign-up limits (docs/security.md, "Login and registration limits"). Every counter is
// a rate-limiter-flexible key (memory, or Redis with REDIS_URL), taken atomically BEFORE the
// password is checked, so parallel guesses cannot all slip past a read-then-write check.

/** "30 seconds" under a minute, otherwise whole minutes, rounded up. */
export function waitPhrase(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 60) return `${s} second${s === 1 ? '' : 's'}`;
  const m = Math.ceil(s / 60);
  return `${m} minute${m === 1 ? '' : 's'}`;
}

export const tooManyLoginsMessage = (seconds: number) =>
  `Too many login attempts. Please try again in ${waitPhrase(seconds)}.`;

export const tooManySignUpsMessage = (seconds: number) =>
  `Too many accounts have been created from your connection. Please try again in ${waitPhrase(seconds)}.`;

/** One guess that has been counted; report a success so it stops counting against the caller. */
export interface CountedGuess {
  succeeded(): Promise<void>;
}

export interface LoginThrottle {
  /**
   * Counts one guess at `account` (a stable key for the account or, if unknown, the name typed)
   * from `address`, or throws a 429 with Retry-After. Call before checking the password.
   */
  begin(account: string, address: string): Promise<CountedGuess>;
}

const NOTHING_COUNTED: CountedGuess = { succeeded: async () => {} };

/**
 * Three counters:
 * - (account, address): a few guesses per window; the attacker's own address runs out, not the owner's.
 * - address: credential stuffing tries one password on many names, so the address has a budget too.
 * - account, from anywhere: past a number of failures each guess waits longer (1 s, 2 s, 4 s … up
 *   to a cap) instead of the account being locked, so the owner can still sign in after a wait.
 * A guess refused by a later counter is given back to the earlier ones: only guesses that reach
 * the password check count.
 */
export function createLoginThrottle(limits: RateLimits, settings: LoginLimitSettings): LoginThrottle {
  const pair = limits.limiter({
    name: 'login-pair',
    points: settings.perUsernameAddress,
    durationSeconds: settings.windowSeconds,
  });
  const perAddress = limits.limiter({
    name: 'login-address',
    points: settings.perAddress,
    durationSeconds: settings.windowSeconds,
  });
  // Counts only (never refuses): its count decides how long the account's gate stays shut.
  const accountCount = limits.limiter({
    name: 'login-account',
    points: Number.MAX_SAFE_INTEGER,
    durationSeconds: settings.accountWindowSeconds,
  });
  // One guess per delay: the first guess to arrive opens the key with its delay, the rest wait.
  const accountGate = limits.limiter({ name: 'login-account-gate', points: 1, durationSeconds: 1 });

  const giveBack = (limiter: Limiter, key: string) => limiter.raw.reward(key, 1);

  return {
    async begin(account, address) {
      if (!limits.enabled) return NOTHING_COUNTED;
      const pairKey = `${account}|${address}`;
      const taken: Array<() => Promise<unknown>> = [];
      try {
        await pair.raw.consume(pairKey);
        taken.push(() => giveBack(pair, pairKey));
        await perAddress.raw.consume(address);
        taken.push(() => giveBack(perAddress, address));
        const counted = await accountCount.raw.consume(account);
        taken.push(() => giveBack(accountCount, account));
        const over = counted.consumedPoints - settings.accountFreeFailures;
        if (over > 0) {
          const delay = Math.min(settings.accountMaxDelaySeconds, 2 ** Math.min(over - 1, 30));
          await accountGate.raw.consume(account, 1, { customDuration: delay });
        }
      } catch (err) {
        await Promise.all(taken.map((undo) => undo()));
        if (!isOverLimit(err)) throw err;
        const seconds = Math.ceil(err.msBeforeNext / 1000);
        throw tooManyRequests(tooManyLoginsMessage(seconds), seconds);
      }
      return {
        // The right password: this name from this address starts afresh, and the guess is no
        // failure for the address or the account.
        async succeeded() {
          await Promise.all([
            pair.raw.delete(pairKey),
            giveBack(perAddress, address),
            giveBack(accountCount, account),
          ]);
        },
      };
    },
  };
}

export interface RegistrationLimit {
  /** Runs `create` if `address` may open another account; a failed `create` is not counted. */
  guard<T>(address: string, create: () => Promise<T>): Promise<T>;
}

/** New accounts per address, so one address cannot collect the sign-up credit at scale. */
export function createRegistrationLimit(
  limits: RateLimits,
  settings: RegistrationLimitSettings,
): RegistrationLimit {
  const perAddress = limits.limiter({
    name: 'register-address',
    points: settings.perAddress,
    durationSeconds: settings.windowSeconds,
  });
  return {
    async guard(address, create) {
      // Counted before the account exists, so parallel sign-ups cannot all pass.
      await perAddress.hit(address, tooManySignUpsMessage);
      try {
        return await create();
      } catch (err) {
        // A refused sign-up (name taken, bad input) opened no account: give its place back.
        if (limits.enabled) await perAddress.raw.reward(address, 1);
        throw err;
      }
    },
  };
}
