import type { Knex } from 'knex';
import type { Config } from './config';

// The ADMIN_REQUIRE_2FA rule (docs/security.md#two-factor-sign-in), in one place for the admin
// routes (http/auth.ts requireAdmin), the admin socket room (realtime/) and GET /api/user.

export const ADMIN_TWO_FACTOR_MESSAGE = 'Set up two-factor sign-in to use the back office.';

/**
 * Whether this admin must turn on two-factor sign-in before anything else in the back office.
 * Outside production the demo admin (ADMIN_USERNAME) is exempt, so a laptop's seeded login works.
 */
export async function adminNeedsTwoFactor(
  db: Knex,
  config: Pick<Config, 'adminRequire2fa' | 'env' | 'adminUsername'>,
  user: { id: number; role: string; username: string },
): Promise<boolean> {
  if (user.role !== 'admin' || !config.adminRequire2fa) return false;
  if (config.env !== 'production' && user.username.toLowerCase() === config.adminUsername.toLowerCase())
    return false;
  const row = await db('twoFactor').where({ userId: user.id }).whereNotNull('enabledAt').first('userId');
  return !row;
}
