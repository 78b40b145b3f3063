import type { AdminUserView, PromoView } from '../../contract/admin';
import type { CreditTransactionView, PreferencesView, PublicUser } from '../../contract/auth';
import { iso } from '../../contract/dates';
import { penceToPounds } from '../../contract/money';
import type { CreditTransaction, PromoConfig, User } from '../../db/models';

/** Where the user stands with two-factor sign-in (accounts/twoFactor.ts twoFactorStatus). */
export interface TwoFactorStatus {
  enabled: boolean;
  setupRequired: boolean;
}

/** The user as their own browser (and the admin's user list) sees them: no password hash, credit in pounds. */
export const presentUser = (u: User, twoFactor: TwoFactorStatus): PublicUser => ({
  id: u.id,
  username: u.username,
  email: u.email,
  firstName: u.firstName,
  lastName: u.lastName,
  phoneNumber: u.phoneNumber,
  deliveryAddress: u.addressLine1
    ? {
        line1: u.addressLine1,
        line2: u.addressLine2 ?? '',
        town: u.addressTown ?? '',
        postcode: u.addressPostcode ?? '',
      }
    : null,
  role: u.role,
  siteCredit: penceToPounds(u.siteCreditPence),
  marketingEmails: Boolean(u.marketingEmails),
  emailVerified: u.emailVerifiedAt !== null && u.emailVerifiedAt !== undefined,
  dateOfBirth: u.dateOfBirth ?? null,
  ageVerifiedAt: u.ageVerifiedAt === null || u.ageVerifiedAt === undefined ? null : iso(u.ageVerifiedAt),
  createdAt: iso(u.createdAt),
  twoFactorEnabled: twoFactor.enabled,
  twoFactorSetupRequired: twoFactor.setupRequired,
});

/** A row of the admin's user list: the user, and the end of a self-exclusion still running. */
export const presentAdminUser = (u: User, twoFactor: TwoFactorStatus, now: number): AdminUserView => ({
  ...presentUser(u, twoFactor),
  selfExcludedUntil:
    u.selfExcludedUntil !== null && Number(u.selfExcludedUntil) > now ? iso(u.selfExcludedUntil) : null,
});

export const presentPreferences = (u: User): PreferencesView => ({
  marketingEmails: Boolean(u.marketingEmails),
  marketingEmailsUpdatedAt: u.marketingEmailsUpdatedAt === null ? null : iso(u.marketingEmailsUpdatedAt),
});

export const presentCreditTransaction = (t: CreditTransaction): CreditTransactionView => ({
  id: t.id,
  type: t.type,
  amount: penceToPounds(t.amountPence),
  description: t.description,
  createdAt: iso(t.createdAt),
});

export const presentPromo = (p: PromoConfig): PromoView => ({
  id: p.id,
  name: p.name,
  description: p.description,
  creditAmount: penceToPounds(p.creditAmountPence),
  targetUserType: p.targetUserType,
  isActive: p.isActive,
  validFrom: iso(p.validFrom),
  validUntil: p.validUntil === null ? null : iso(p.validUntil),
  maxUsesPerUser: p.maxUsesPerUser,
  totalMaxUses: p.totalMaxUses,
  currentUses: p.currentUses,
  autoApply: p.autoApply,
  code: p.code,
  createdAt: iso(p.createdAt),
  updatedAt: iso(p.updatedAt),
});
