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
import { route } from './apiRoute';
import type { PublicUser } from './auth';
import type { AdminComplaintView, ComplaintQueueView } from './complaints';
import { ComplaintQueueQuerySchema, ComplaintReplySchema } from './complaints';
import type { HarmReportView, HarmReviewView, HarmThresholds } from './protection';
import { HarmReviewSchema, HarmThresholdsSchema } from './protection';

type Done = { success: boolean; message: string };

/** The back office's users, age checks, complaint queue, harm report, promos and mail log. */
export const ADMIN_ACCOUNT_ROUTES = {
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
  verifyAge: route<PublicUser>()({
    method: 'POST',
    path: '/api/admin/users/:userId/age-verification',
    params: UserIdParamSchema,
  }),
  complaintQueue: route<ComplaintQueueView>()({
    method: 'GET',
    path: '/api/admin/complaints',
    query: ComplaintQueueQuerySchema,
  }),
  replyToComplaint: route<AdminComplaintView & { emailSent: boolean }>()({
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
