import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { ADMIN_ACCOUNT_ROUTES } from '../../../contract/apiAdminAccounts';
import type { AdminComplaintView, ComplaintStatus } from '../../../contract/complaints';
import { formatDateTime, formatShortDate } from '../../../contract/londonTime';
import { call } from '../../api/call';
import { messageOf } from '../../api/client';
import { STATUS_LABELS } from '../../components/account/ComplaintsSection';
import { AdminTable } from '../../components/admin/AdminTable';
import {
  AdminHeader,
  Control,
  DialogActions,
  SearchBox,
  StatusBadge,
  Tabs,
  Toolbar,
} from '../../components/admin/AdminUi';
import { Pager } from '../../components/admin/Pager';
import { useAdminRoute } from '../../components/admin/useAdminData';
import { useAdminMutation } from '../../components/admin/useAdminMutation';
import { Button } from '../../components/ui/Button';
import { Dialog } from '../../components/ui/Dialog';
import { PageContainer } from '../../components/ui/Page';
import { useSiteName } from '../../stores/site';

type Tab = ComplaintStatus | 'all';

const Thread = styled.div`
  max-height: 40vh;
  overflow: auto;
  p { white-space: pre-line; margin: 0 0 ${({ theme }) => theme.space.sm}; }
  small { color: ${({ theme }) => theme.colors.textMuted}; }
  textarea { min-height: 120px; font: inherit; padding: ${({ theme }) => theme.space.sm}; }
`;

/** One complaint: the customer's words, the replies so far, a reply (e-mailed) and Close. */
function ComplaintDetail({
  complaint,
  onClose,
  onChanged,
}: {
  complaint: AdminComplaintView;
  onClose: () => void;
  onChanged: () => void;
}) {
  const [reply, setReply] = useState('');
  const { busy, run } = useAdminMutation();

  const send = async () => {
    const done = await run(
      () =>
        call(ADMIN_ACCOUNT_ROUTES.replyToComplaint, {
          params: { id: complaint.id },
          body: { message: reply },
        }),
      {
        success: (r) => ({
          title: 'Reply sent',
          description: r.emailSent
            ? `E-mailed to ${complaint.customer.email}`
            : 'Saved, but the e-mail failed: see E-mails sent',
        }),
        failureTitle: 'Reply not sent',
        fallback: 'The reply could not be sent',
      },
    );
    if (done) {
      setReply('');
      onChanged();
    }
  };
  const close = async () => {
    const done = await run(
      () => call(ADMIN_ACCOUNT_ROUTES.closeComplaint, { params: { id: complaint.id } }),
      {
        success: () => ({ title: 'Complaint closed', description: complaint.reference }),
        failureTitle: 'Not closed',
        fallback: 'The complaint could not be closed',
      },
    );
    if (done) onChanged();
  };

  return (
    <>
      <Thread>
        <p>
          <strong>{complaint.subject}</strong>
          <br />
          <small>
            {complaint.customer.username} ({complaint.customer.email}) · {formatDateTime(complaint.createdAt)}
            {complaint.orderNumber ? ` · ${complaint.orderNumber}` : ''} · due{' '}
            {formatShortDate(complaint.dueAt)}
          </small>
        </p>
        <p>{complaint.message}</p>
        {complaint.replies.map((r) => (
          <p key={r.createdAt}>
            <small>
              Reply by {r.adminUsername ?? 'a former admin'}, {formatDateTime(r.createdAt)}
            </small>
            <br />
            {r.message}
          </p>
        ))}
      </Thread>
      {complaint.status !== 'closed' && (
        <Control>
          <label htmlFor="complaint-reply">Reply (e-mailed to the customer)</label>
          <textarea id="complaint-reply" value={reply} onChange={(e) => setReply(e.target.value)} />
        </Control>
      )}
      <DialogActions>
        <Button type="button" $variant="ghost" onClick={onClose} disabled={busy}>
          Back
        </Button>
        {complaint.status !== 'closed' && (
          <>
            <Button type="button" $variant="ghost" onClick={() => void close()} disabled={busy}>
              Close complaint
            </Button>
            <Button type="button" onClick={() => void send()} disabled={busy || !reply.trim()}>
              Send reply
            </Button>
          </>
        )}
      </DialogActions>
    </>
  );
}

/** /admin/complaints: the queue, open first and by due date, searched and paged, with replies by e-mail. */
export default function AdminComplaintsPage() {
  const siteName = useSiteName();
  useEffect(() => {
    document.title = `Complaints | ${siteName}`;
  }, [siteName]);
  const [tab, setTab] = useState<Tab>('open');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const list = useAdminRoute(ADMIN_ACCOUNT_ROUTES.complaintQueue, {
    query: { page: String(page), status: tab === 'all' ? undefined : tab, search: search || undefined },
  });
  const [openId, setOpenId] = useState<number>();
  const current = list.data?.complaints.find((c) => c.id === openId);

  return (
    <PageContainer>
      <AdminHeader title="Complaints" />
      <Tabs
        label="Complaints"
        tabs={[
          { key: 'open', label: 'Open' },
          { key: 'responded', label: 'Replied' },
          { key: 'closed', label: 'Closed' },
          { key: 'all', label: 'All' },
        ]}
        value={tab}
        onChange={(next) => {
          setTab(next);
          setPage(1);
        }}
      />
      <Toolbar>
        <SearchBox
          id="complaint-search"
          label="Reference, customer or subject"
          placeholder="CMP-ABCD2345 or name@example.co.uk"
          onSearch={(typed) => {
            setSearch(typed);
            setPage(1);
          }}
        />
      </Toolbar>
      <AdminTable
        label="Complaints"
        rows={list.data?.complaints}
        error={list.error}
        loadingLabel="Loading complaints"
        errorText={(e) => `Error loading complaints: ${messageOf(e, e.message)}`}
        empty="No complaints here."
        rowKey={(c) => c.id}
        rowTestId="complaint-row"
        columns={[
          { header: 'Reference', className: 'nowrap', cell: (c) => c.reference },
          { header: 'Customer', cell: (c) => c.customer.username },
          { header: 'Subject', cell: (c) => c.subject },
          { header: 'Received', className: 'nowrap', cell: (c) => formatShortDate(c.createdAt) },
          {
            header: 'Due',
            className: 'nowrap',
            cell: (c) => (
              <>
                {formatShortDate(c.dueAt)} {c.overdue && <StatusBadge $status="failed">Overdue</StatusBadge>}
              </>
            ),
          },
          {
            header: 'Status',
            cell: (c) => <StatusBadge $status={c.status}>{STATUS_LABELS[c.status]}</StatusBadge>,
          },
        ]}
        actions={(c) => (
          <Button
            type="button"
            $variant="ghost"
            onClick={() => setOpenId(c.id)}
            aria-label={`Open ${c.reference}`}
          >
            Open
          </Button>
        )}
        footer={list.data && <Pager info={list.data} noun="complaints" onPage={setPage} />}
      />
      <Dialog
        open={current !== undefined}
        onClose={() => setOpenId(undefined)}
        title={`Complaint ${current?.reference ?? ''}`}
        wide
        testId="complaint-dialog"
      >
        {current && (
          // Keyed: another complaint starts with an empty reply.
          <ComplaintDetail
            key={current.id}
            complaint={current}
            onClose={() => setOpenId(undefined)}
            onChanged={list.reload}
          />
        )}
      </Dialog>
    </PageContainer>
  );
}
