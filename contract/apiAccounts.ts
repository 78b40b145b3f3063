import type { AccountMessageView, AccountSessionView, VerifyEmailView } from './account';
import {
  ChangeEmailSchema,
  ChangePasswordSchema,
  DeleteAccountSchema,
  ForgotPasswordSchema,
  ResetPasswordSchema,
  SessionIdParamSchema,
  TwoFactorNotMeSchema,
  VerifyEmailSchema,
} from './account';
import { DateOfBirthSchema } from './age';
import { route } from './apiRoute';
import type {
  CreditTransactionView,
  PreferencesView,
  PromoRedeemedView,
  PublicUser,
  TwoFactorEnabledView,
  TwoFactorSetupView,
} from './auth';
import { PhoneNumberSchema, PreferencesSchema, RedeemPromoCodeSchema, TwoFactorPasswordSchema } from './auth';
import type { ComplaintCreatedView, ComplaintView } from './complaints';
import { ComplaintCreateSchema } from './complaints';
import type { PlayStateView, SelfExclusionView, SpendLimitsView } from './protection';
import { SelfExclusionSchema, SpendLimitSchema } from './protection';
import { PublicNameSchema, type PublicNameView } from './publicNames';
import type { ReferralView } from './referrals';
import type { CurrentPromotions } from './site';

type Ok = { ok: boolean };

/** Sign-in, the customer's account, player protection, complaints, and the admin's users, promos and mail log. */
export const ACCOUNT_ROUTES = {
  twoFactor: route<{ recoveryCodesLeft: number }>()({ method: 'GET', path: '/api/account/2fa' }),
  twoFactorSetup: route<TwoFactorSetupView>()({ method: 'POST', path: '/api/account/2fa/setup' }),
  twoFactorEnable: route<TwoFactorEnabledView>()({
    method: 'POST',
    path: '/api/account/2fa/enable',
    body: TwoFactorPasswordSchema,
  }),
  twoFactorDisable: route<Ok>()({
    method: 'POST',
    path: '/api/account/2fa/disable',
    body: TwoFactorPasswordSchema,
  }),
  /** The "this wasn't me" link of the e-mail sent when two-factor sign-in is turned on: no session. */
  twoFactorNotMe: route<AccountMessageView>()({
    method: 'POST',
    path: '/api/account/2fa/not-me',
    body: TwoFactorNotMeSchema,
  }),
  currentPromotions: route<CurrentPromotions>()({ method: 'GET', path: '/api/promotions/current' }),
  credit: route<{ credit: number }>()({ method: 'GET', path: '/api/user/credit' }),
  creditTransactions: route<CreditTransactionView[]>()({
    method: 'GET',
    path: '/api/user/credit/transactions',
  }),
  /** The signed-in customer's referral link and what it has earned (docs/product.md#referrals). */
  referral: route<ReferralView>()({ method: 'GET', path: '/api/account/referral' }),
  redeemPromoCode: route<PromoRedeemedView>()({
    method: 'POST',
    path: '/api/account/promo-code',
    body: RedeemPromoCodeSchema,
  }),
  phoneNumber: route<PublicUser>()({
    method: 'PUT',
    path: '/api/user/phone-number',
    body: PhoneNumberSchema,
  }),
  /** How the customer appears in public (docs/product.md#public-names-and-winner-stories). */
  publicName: route<PublicNameView>()({ method: 'GET', path: '/api/account/public-name' }),
  setPublicName: route<PublicNameView>()({
    method: 'PUT',
    path: '/api/account/public-name',
    body: PublicNameSchema,
  }),
  preferences: route<PreferencesView>()({
    method: 'PUT',
    path: '/api/account/preferences',
    body: PreferencesSchema,
  }),
  forgotPassword: route<AccountMessageView>()({
    method: 'POST',
    path: '/api/password/forgot',
    body: ForgotPasswordSchema,
  }),
  resetPassword: route<AccountMessageView>()({
    method: 'POST',
    path: '/api/password/reset',
    body: ResetPasswordSchema,
  }),
  verifyEmail: route<VerifyEmailView>()({
    method: 'POST',
    path: '/api/verify-email',
    body: VerifyEmailSchema,
  }),
  resendVerification: route<AccountMessageView>()({ method: 'POST', path: '/api/verify-email/resend' }),
  changePassword: route<AccountMessageView>()({
    method: 'POST',
    path: '/api/account/password',
    body: ChangePasswordSchema,
  }),
  changeEmail: route<AccountMessageView>()({
    method: 'POST',
    path: '/api/account/email',
    body: ChangeEmailSchema,
  }),
  sessions: route<AccountSessionView[]>()({ method: 'GET', path: '/api/account/sessions' }),
  endSession: route<AccountMessageView>()({
    method: 'DELETE',
    path: '/api/account/sessions/:id',
    params: SessionIdParamSchema,
  }),
  endOtherSessions: route<AccountMessageView & { ended: number }>()({
    method: 'POST',
    path: '/api/account/sessions/revoke-others',
  }),
  exportAccount: route()({
    method: 'GET',
    path: '/api/account/export',
    kind: 'file',
    note: 'A JSON file download (Content-Disposition), fetched with apiDownload.',
  }),
  deleteAccount: route<AccountMessageView>()({
    method: 'DELETE',
    path: '/api/account',
    body: DeleteAccountSchema,
  }),
  spendLimits: route<SpendLimitsView>()({ method: 'GET', path: '/api/account/limits' }),
  setSpendLimit: route<SpendLimitsView>()({
    method: 'PUT',
    path: '/api/account/limits',
    body: SpendLimitSchema,
  }),
  selfExclusion: route<SelfExclusionView>()({ method: 'GET', path: '/api/account/self-exclusion' }),
  playState: route<PlayStateView>()({ method: 'GET', path: '/api/account/play-state' }),
  startSelfExclusion: route<SelfExclusionView>()({
    method: 'POST',
    path: '/api/account/self-exclusion',
    body: SelfExclusionSchema,
  }),
  dateOfBirth: route<PublicUser>()({
    method: 'PUT',
    path: '/api/account/date-of-birth',
    body: DateOfBirthSchema,
  }),
  createComplaint: route<ComplaintCreatedView>()({
    method: 'POST',
    path: '/api/complaints',
    body: ComplaintCreateSchema,
  }),
  complaints: route<ComplaintView[]>()({ method: 'GET', path: '/api/complaints' }),
};
