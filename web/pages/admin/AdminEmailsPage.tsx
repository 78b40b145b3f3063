import { useEffect, useState } from 'react';
import { MAIL_LOG_LIMIT } from '../../../contract/admin';
import { ADMIN_ACCOUNT_ROUTES } from '../../../contract/apiAdminAccounts';
import { formatDateTime } from '../../../contract/londonTime';
import { messageOf } from '../../api/client';
import { AdminTable } from '../../components/admin/AdminTable';
import { AdminHeader, Muted, SearchBox, StatusBadge, Toolbar } from '../../components/admin/AdminUi';
import { useAdminRoute } from '../../components/admin/useAdminData';
import { PageContainer } from '../../components/ui/Page';
import { useSiteName } from '../../stores/site';

/**
 * /admin/emails, 'E-mails sent': the newest e-mails with their recipient, subject, time and
 * whether they went, so an operator can answer "I never got my e-mail".
 */
export default function AdminEmailsPage() {
  const siteName = useSiteName();
  useEffect(() => {
    document.title = `E-mails sent | ${siteName}`;
  }, [siteName]);
  const [search, setSearch] = useState('');
  const list = useAdminRoute(ADMIN_ACCOUNT_ROUTES.mailLog, { query: { search: search || undefined } });

  return (
    <PageContainer>
      <AdminHeader title="E-mails sent" />
      <Toolbar>
        <Muted>The newest {MAIL_LOG_LIMIT} e-mails, newest first. Times are UK time.</Muted>
        <SearchBox
          id="email-search"
          label="Recipient"
          placeholder="name@example.co.uk"
          onSearch={setSearch}
        />
      </Toolbar>
      <AdminTable
        label="E-mails sent"
        rows={list.data}
        error={list.error}
        loadingLabel="Loading e-mails"
        errorText={(e) => `Error loading e-mails: ${messageOf(e, e.message)}`}
        empty={search ? `No e-mails to addresses containing "${search}".` : 'No e-mails have been sent yet.'}
        rowKey={(m) => m.id}
        rowTestId="email-row"
        columns={[
          { header: 'Sent', className: 'nowrap', cell: (m) => formatDateTime(m.sentAt) },
          { header: 'Recipient', cell: (m) => m.recipient },
          { header: 'Subject', cell: (m) => m.subject },
          { header: 'Template', className: 'nowrap', cell: (m) => m.template },
          {
            header: 'Status',
            cell: (m) => (
              <>
                <StatusBadge $status={m.status}>{m.status}</StatusBadge>
                {m.error && <div>{m.error}</div>}
              </>
            ),
          },
        ]}
      />
    </PageContainer>
  );
}
