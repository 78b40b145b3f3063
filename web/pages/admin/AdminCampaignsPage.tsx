import { useEffect } from 'react';
import { ADMIN_MARKETING_ROUTES } from '../../../contract/apiMarketing';
import { formatDateTime } from '../../../contract/londonTime';
import type { MarketingKind } from '../../../contract/marketing';
import { messageOf } from '../../api/client';
import { AdminTable } from '../../components/admin/AdminTable';
import { AdminHeader, Muted, Toolbar } from '../../components/admin/AdminUi';
import { useAdminRoute } from '../../components/admin/useAdminData';
import { PageContainer } from '../../components/ui/Page';
import { useSiteName } from '../../stores/site';

const KIND_LABELS: Record<MarketingKind, string> = {
  'ending-soon': 'Ending soon',
  'new-competition': 'New competition live',
};

/**
 * /admin/campaigns: every marketing e-mail campaign (docs/emails.md#marketing-e-mails), newest
 * first: what was sent, to how many, how many wait or were dropped over the daily allowance, and
 * how many unsubscribed with its link.
 */
export default function AdminCampaignsPage() {
  const siteName = useSiteName();
  useEffect(() => {
    document.title = `Campaigns | ${siteName}`;
  }, [siteName]);
  const list = useAdminRoute(ADMIN_MARKETING_ROUTES.campaigns, {});

  return (
    <PageContainer>
      <AdminHeader title="Campaigns" />
      <Toolbar>
        <Muted>
          Marketing e-mails go only to customers who opted in, with a confirmed address and no break. Times
          are UK time.
        </Muted>
      </Toolbar>
      <AdminTable
        label="Campaigns"
        rows={list.data}
        error={list.error}
        loadingLabel="Loading campaigns"
        errorText={(e) => `Error loading campaigns: ${messageOf(e, e.message)}`}
        empty="No marketing e-mails have been sent yet."
        rowKey={(c) => c.id}
        rowTestId="campaign-row"
        columns={[
          { header: 'Started', className: 'nowrap', cell: (c) => formatDateTime(c.startedAt) },
          { header: 'E-mail', className: 'nowrap', cell: (c) => KIND_LABELS[c.kind] },
          { header: 'Competition', cell: (c) => c.title },
          { header: 'Sent', className: 'num', cell: (c) => c.sent },
          { header: 'Waiting', className: 'num', cell: (c) => c.waiting },
          { header: 'Dropped', className: 'num', cell: (c) => c.dropped },
          { header: 'Unsubscribed', className: 'num', cell: (c) => c.unsubscribed },
        ]}
      />
    </PageContainer>
  );
}
