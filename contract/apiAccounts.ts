import type { AccountMessageView, AccountSessionView, VerifyEmailView } from './account';
import {
  ChangeEmailSchema,
  ChangePasswordSchema,
  DeleteAccountSchema,
  ForgotPasswordSchema,
  ResetPasswordSchema,
  SessionIdParamSchema,
  VerifyEmailSchema,
} from './account';
import type { AdminUserView, MailLogEntryView, PromoView } from './admin';
import {
  AdminIdParamSchema,
  MailLogQuerySchema,
  PromoCreateSchema,
  PromoListQuerySchema,
  PromoUpdateSchema,
  RoleChangeSchema,
  UserIdParamSchema,
} from './admin';
import { DateOfBirthSchema } from './age';
import { route } from './apiRoute';
import type {
  CreditTransactionView,
  PreferencesView,
  PromoRedeemedView,
  PublicUser,
  SessionView,
  SignInView,
  TwoFactorChallenge,
  TwoFactorEnabledView,
  TwoFactorSetupView,
} from './auth';
import {
  LoginSchema,
  PhoneNumberSchema,
  PreferencesSchema,
  RedeemPromoCodeSchema,
  RegisterSchema,
  TwoFactorCodeSchema,
  TwoFactorDisableSchema,
} from './auth';
import type {
  AdminComplaintView,
  ComplaintCreatedView,
  ComplaintQueueView,
  ComplaintReplyView,
  ComplaintView,
} from './complaints';
import { ComplaintCreateSchema, ComplaintQueueQuerySchema, ComplaintReplySchema } from './complaints';
import type {
  HarmReportView,
  HarmReviewView,
  HarmThresholds,
  SelfExclusionView,
  SpendLimitsView,
} from './protection';
import { HarmReviewSchema, HarmThresholdsSchema, SelfExclusionSchema, SpendLimitSchema } from './protection';
import type { CurrentPromotions } from './site';

type Ok = { ok: boolean };
type Done = { success: boolean; message: string };

/** Sign-in, the customer's account, player protection, complaints, and the admin's users, promos and mail log. */
export const ACCOUNT_ROUTES = {
  register: route<SignInView>()({ method: 'POST', path: '/api/register', body: RegisterSchema }),
  login: route<SignInView | TwoFactorChallenge>()({ method: 'POST', path: '/api/login', body: LoginSchema }),
  loginTwoFactor: route<SignInView>()({ method: 'POST', path: '/api/login/2fa', body: TwoFactorCodeSchema }),
  logout: route<Ok>()({ method: 'POST', path: '/api/logout' }),
  user: route<PublicUser>()({ method: 'GET', path: '/api/user' }),
  session: route<SessionView>()({ method: 'GET', path: '/api/session' }),

  twoFactor: route<{ recoveryCodesLeft: number }>()({ method: 'GET', path: '/api/account/2fa' }),
  twoFactorSetup: route<TwoFactorSetupView>()({ method: 'POST', path: '/api/account/2fa/setup' }),
  twoFactorEnable: route<TwoFactorEnabledView>()({
    method: 'POST',
    path: '/api/account/2fa/enable',
    body: TwoFactorCodeSchema,
  }),
  twoFactorDisable: route<Ok>()({
    method: 'POST',
    path: '/api/account/2fa/disable',
    body: TwoFactorDisableSchema,
  }),

  currentPromotions: route<CurrentPromotions>()({ method: 'GET', path: '/api/promotions/current' }),
  credit: route<{ credit: number }>()({ method: 'GET', path: '/api/user/credit' }),
  creditTransactions: route<CreditTransactionView[]>()({
    method: 'GET',
    path: '/api/user/credit/transactions',
  }),
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
  startSelfExclusion: route<SelfExclusionView>()({
    method: 'POST',
    path: '/api/account/self-exclusion',
    body: SelfExclusionSchema,
  }),
  harmReport: route<HarmReportView>()({ method: 'GET', path: '/api/admin/harm-report' }),
  setHarmThresholds: route<HarmThresholds>()({
    method: 'PUT',
    path: '/api/admin/harm-report/thresholds',
    body: HarmThresholdsSchema,
  }),
  addHarmReview: route<HarmReviewView>()({
    method: 'POST',
    path: '/api/admin/harm-report/:userId/reviews',
    params: UserIdParamSchema,
    body: HarmReviewSchema,
  }),

  dateOfBirth: route<PublicUser>()({
    method: 'PUT',
    path: '/api/account/date-of-birth',
    body: DateOfBirthSchema,
  }),
  verifyAge: route<PublicUser>()({
    method: 'POST',
    path: '/api/admin/users/:userId/age-verification',
    params: UserIdParamSchema,
  }),
  createComplaint: route<ComplaintCreatedView>()({
    method: 'POST',
    path: '/api/complaints',
    body: ComplaintCreateSchema,
  }),
  complaints: route<ComplaintView[]>()({ method: 'GET', path: '/api/complaints' }),
  complaintQueue: route<ComplaintQueueView>()({
    method: 'GET',
    path: '/api/admin/complaints',
    query: ComplaintQueueQuerySchema,
  }),
  replyToComplaint: route<ComplaintReplyView>()({
    method: 'POST',
    path: '/api/admin/complaints/:id/reply',
    params: AdminIdParamSchema,
    body: ComplaintReplySchema,
  }),
  closeComplaint: route<AdminComplaintView>()({
    method: 'POST',
    path: '/api/admin/complaints/:id/close',
    params: AdminIdParamSchema,
  }),

  adminUsers: route<AdminUserView[]>()({ method: 'GET', path: '/api/admin/users' }),
  changeRole: route<PublicUser>()({
    method: 'PATCH',
    path: '/api/admin/users/:userId/role',
    params: UserIdParamSchema,
    body: RoleChangeSchema,
  }),
  deleteUser: route<Done>()({
    method: 'DELETE',
    path: '/api/admin/users/:userId',
    params: UserIdParamSchema,
  }),

  promos: route<PromoView[]>()({ method: 'GET', path: '/api/admin/promos', query: PromoListQuerySchema }),
  createPromo: route<PromoView>()({ method: 'POST', path: '/api/admin/promos', body: PromoCreateSchema }),
  updatePromo: route<PromoView>()({
    method: 'PUT',
    path: '/api/admin/promos/:id',
    params: AdminIdParamSchema,
    body: PromoUpdateSchema,
  }),
  deletePromo: route<Done>()({ method: 'DELETE', path: '/api/admin/promos/:id', params: AdminIdParamSchema }),
  resetAllCredits: route<{ message: string }>()({ method: 'POST', path: '/api/admin/reset-all-credits' }),

  mailLog: route<MailLogEntryView[]>()({
    method: 'GET',
    path: '/api/admin/emails',
    query: MailLogQuerySchema,
  }),
};
