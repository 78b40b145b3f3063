import type { CreditTransactionView, PublicUser } from '../../contract/auth';
import { iso } from '../../contract/dates';
import { penceToPounds } from '../../contract/money';
import type { CreditTransaction, User } from '../../db/models';

/** The user as their own browser sees them: no password hash, credit in pounds. */
export const presentUser = (u: User): PublicUser => ({
  id: u.id,
  username: u.username,
  email: u.email,
  firstName: u.firstName,
  lastName: u.lastName,
  phoneNumber: u.phoneNumber,
  role: u.role,
  siteCredit: penceToPounds(u.siteCreditPence),
  createdAt: iso(u.createdAt),
});

export const presentCreditTransaction = (t: CreditTransaction): CreditTransactionView => ({
  id: t.id,
  type: t.type,
  amount: penceToPounds(t.amountPence),
  description: t.description,
  createdAt: iso(t.createdAt),
});
