import { useEffect, useState } from 'react';
import type { PromoView } from '../../../contract/admin';
import { formatPounds } from '../../../contract/money';
import { apiSend, messageOf } from '../../api/client';
import {
  AdminHeader,
  Muted,
  RowActions,
  StatusBadge,
  Table,
  TableWrap,
  Tabs,
} from '../../components/admin/AdminUi';
import { ConfirmDialog } from '../../components/admin/ConfirmDialog';
import { formatShortDate } from '../../components/admin/formatAdmin';
import { PromoFormDialog } from '../../components/admin/PromoFormDialog';
import { useAdminData } from '../../components/admin/useAdminData';
import { useAdminMutation } from '../../components/admin/useAdminMutation';
import { Button } from '../../components/ui/Button';
import { ErrorBox } from '../../components/ui/Form';
import { PageContainer } from '../../components/ui/Page';
import { Spinner } from '../../components/ui/Spinner';
import { useSiteName } from '../../stores/site';

type Tab = 'active' | 'all';

/** /admin/promos: Site Credit Promos, the Active and All tabs, the modal, delete, Reset All Credits. */
export default function AdminPromosPage() {
  const siteName = useSiteName();
  useEffect(() => {
    document.title = `Site Credit Promos | ${siteName}`;
  }, [siteName]);
  const [tab, setTab] = useState<Tab>('active');
  const list = useAdminData<PromoView[]>(
    tab === 'active' ? '/api/admin/promos?active=true' : '/api/admin/promos',
  );
  const [editing, setEditing] = useState<PromoView | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<PromoView>();
  const [resetting, setResetting] = useState(false);
  const { busy, run } = useAdminMutation();

  const remove = async () => {
    if (!deleting) return;
    const promo = deleting;
    const done = await run(
      () => apiSend('DELETE', `/api/admin/promos/${promo.id}`),
      {
        success: () => ({ title: 'Promo deleted successfully', description: promo.name }),
        failureTitle: 'Error',
        fallback: 'The promo could not be deleted',
      },
      () => setDeleting(undefined),
    );
    if (done !== undefined) list.reload();
  };

  const resetAll = async () => {
    const done = await run(
      () => apiSend<{ message: string }>('POST', '/api/admin/reset-all-credits'),
      {
        success: ({ message }) => ({ title: 'Credits reset', description: message }),
        failureTitle: 'Reset Failed',
        fallback: 'Site credit could not be reset',
      },
      () => setResetting(false),
    );
    if (done !== undefined) list.reload();
  };

  return (
    <PageContainer>
      <AdminHeader title="Site Credit Promos">
        <Button type="button" onClick={() => setEditing(null)}>
          Create Promo
        </Button>
        <Button type="button" $variant="danger" onClick={() => setResetting(true)}>
          Reset All Credits
        </Button>
      </AdminHeader>
      <Tabs
        label="Promos"
        tabs={[
          { key: 'active', label: 'Active Promos' },
          { key: 'all', label: 'All Promos' },
        ]}
        value={tab}
        onChange={setTab}
      />
      {list.error && !list.data ? (
        <ErrorBox role="alert">{messageOf(list.error, 'The promos could not be loaded')}</ErrorBox>
      ) : !list.data ? (
        <Spinner label="Loading promos" />
      ) : list.data.length === 0 ? (
        <Muted>{tab === 'active' ? 'No active promos.' : 'No promos yet.'}</Muted>
      ) : (
        <TableWrap>
          <Table aria-label={tab === 'active' ? 'Active Promos' : 'All Promos'}>
            <thead>
              <tr>
                <th>Name</th>
                <th>Credit</th>
                <th>Target</th>
                <th>Uses</th>
                <th>Valid</th>
                <th>Status</th>
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((p) => (
                <tr key={p.id} data-testid="promo-row">
                  <td>
                    {p.name}
                    {p.description && (
                      <>
                        <br />
                        <small>{p.description}</small>
                      </>
                    )}
                  </td>
                  <td className="num">{formatPounds(p.creditAmount)}</td>
                  <td className="nowrap">{p.targetUserType === 'all' ? 'All users' : 'New users'}</td>
                  <td className="num">
                    {p.currentUses} / {p.totalMaxUses ?? '∞'}
                    <br />
                    <small>{p.maxUsesPerUser} per user</small>
                  </td>
                  <td className="nowrap">
                    {formatShortDate(p.validFrom)} – {p.validUntil ? formatShortDate(p.validUntil) : 'no end'}
                  </td>
                  <td>
                    <StatusBadge $status={p.isActive ? 'active' : 'ended'}>
                      {p.isActive ? 'Active' : 'Inactive'}
                    </StatusBadge>
                    {p.autoApply && (
                      <>
                        <br />
                        <small>Auto-apply</small>
                      </>
                    )}
                  </td>
                  <td>
                    <RowActions>
                      <Button
                        type="button"
                        $variant="ghost"
                        onClick={() => setEditing(p)}
                        aria-label={`Edit ${p.name}`}
                      >
                        Edit
                      </Button>
                      <Button
                        type="button"
                        $variant="ghost"
                        onClick={() => setDeleting(p)}
                        aria-label={`Delete ${p.name}`}
                      >
                        Delete
                      </Button>
                    </RowActions>
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        </TableWrap>
      )}
      <PromoFormDialog
        open={editing !== undefined}
        promo={editing ?? null}
        onClose={() => setEditing(undefined)}
        onSaved={() => {
          setEditing(undefined);
          list.reload();
        }}
      />
      <ConfirmDialog
        open={deleting !== undefined}
        title="Delete Promo"
        confirmLabel="Delete"
        busy={busy}
        onConfirm={() => void remove()}
        onClose={() => setDeleting(undefined)}
      >
        <p>
          Delete “{deleting?.name}”? The credit it gave is taken back from the accounts that received it
          (through their credit history). This cannot be undone.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={resetting}
        title="Reset All Credits"
        confirmLabel="Reset All Credits"
        busy={busy}
        onConfirm={() => void resetAll()}
        onClose={() => setResetting(false)}
        testId="reset-credits-dialog"
      >
        <p>Set every user's site credit to £0.00? This cannot be undone.</p>
      </ConfirmDialog>
    </PageContainer>
  );
}
