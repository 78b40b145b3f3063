import type { ComponentType } from 'react';
import type { AdminPagePath } from '../../../contract/routes';
import { adminOnly } from '../../components/admin/RequireAdmin';
import AdminCampaignsPage from './AdminCampaignsPage';
import AdminCompetitionDetailPage from './AdminCompetitionDetailPage';
import AdminCompetitionsPage from './AdminCompetitionsPage';
import AdminComplaintsPage from './AdminComplaintsPage';
import AdminCustomerPage from './AdminCustomerPage';
import AdminDashboardPage from './AdminDashboardPage';
import AdminEmailsPage from './AdminEmailsPage';
import AdminHarmReportPage from './AdminHarmReportPage';
import AdminOrderDetailPage from './AdminOrderDetailPage';
import AdminOrdersPage from './AdminOrdersPage';
import AdminPromosPage from './AdminPromosPage';
import AdminSiteSettingsPage, { DirectSiteSettingsPage } from './AdminSiteSettingsPage';
import AdminTicketLookupPage from './AdminTicketLookupPage';
import AdminUsersPage from './AdminUsersPage';
import DirectUploadTestPage from './DirectUploadTestPage';

// Every admin screen behind its guard, in one chunk that customers never download. Each is made
// once here: a new component per render would remount the page.
export const adminRoutes = {
  '/admin': adminOnly(AdminDashboardPage),
  '/admin/competitions': adminOnly(AdminCompetitionsPage),
  '/admin/competitions/:id': adminOnly(AdminCompetitionDetailPage),
  '/admin/orders': adminOnly(AdminOrdersPage),
  '/admin/orders/:id': adminOnly(AdminOrderDetailPage),
  '/admin/users': adminOnly(AdminUsersPage),
  '/admin/users/:id': adminOnly(AdminCustomerPage),
  '/admin/ticket-lookup': adminOnly(AdminTicketLookupPage),
  '/admin/site-settings': adminOnly(AdminSiteSettingsPage),
  '/direct-site-settings': adminOnly(DirectSiteSettingsPage),
  '/direct-upload-test': adminOnly(DirectUploadTestPage),
  '/admin/promos': adminOnly(AdminPromosPage),
  '/admin/emails': adminOnly(AdminEmailsPage),
  '/admin/campaigns': adminOnly(AdminCampaignsPage),
  '/admin/complaints': adminOnly(AdminComplaintsPage),
  '/admin/harm-report': adminOnly(AdminHarmReportPage),
} satisfies Record<AdminPagePath, ComponentType>;
export type AdminPath = keyof typeof adminRoutes;
