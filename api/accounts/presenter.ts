import type { PromoView } from '../../contract/admin';
import type { CreditTransactionView, PublicUser } from '../../contract/auth';
import { iso } from '../../contract/dates';
import { penceToPounds } from '../../contract/money';
import type { CreditTransaction, PromoConfig, User } from '../../db/models';

/** The user as their own browser (and the admin's user list) sees them: no password hash, credit in pounds. */
export const presentUser = (u: User): PublicUser => ({
  id: u.id,
  username: u.username,
  email: u.email,
  firstName: u.firstName,
  lastName: u.lastName,
  phoneNumber: u.phoneNumber,
  role: u.role,
  siteCredit: penceToPounds(u.siteCreditPence),
  emailVerified: u.emailVerifiedAt !== null && u.emailVerifiedAt !== undefined,
  createdAt: iso(u.createdAt),
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
  createdAt: iso(p.createdAt),
  updatedAt: iso(p.updatedAt),
});
