import { useEffect, useState } from 'react';
import type { PromoView } from '../../../contract/admin';
import { ADMIN_ACCOUNT_ROUTES } from '../../../contract/apiAdminAccounts';
import { formatShortDate } from '../../../contract/londonTime';
import { formatPounds } from '../../../contract/money';
import { call } from '../../api/call';
import { messageOf } from '../../api/client';
import { type AdminColumn, AdminTable } from '../../components/admin/AdminTable';
import { AdminHeader, StatusBadge, Tabs } from '../../components/admin/AdminUi';
import { ConfirmDialog } from '../../components/admin/ConfirmDialog';
import { PromoFormDialog } from '../../components/admin/PromoFormDialog';
import { useAdminRoute } from '../../components/admin/useAdminData';
import { useAdminMutation } from '../../components/admin/useAdminMutation';
import { useConfirmedDelete } from '../../components/admin/useConfirmedDelete';
import { Button } from '../../components/ui/Button';
import { PageContainer } from '../../components/ui/Page';
import { useSiteName } from '../../stores/site';

type Tab = 'active' | 'all';

/** The promo table: what each promo gives, to whom, how often, when, and whether it runs. */
const PROMO_COLUMNS: ReadonlyArray<AdminColumn<PromoView>> = [
  {
    header: 'Name',
    cell: (p) => (
      <>
        {p.name}
        {p.description && (
          <>
            <br />
            <small>{p.description}</small>
          </>
        )}
      </>
    ),
  },
  { header: 'Code', cell: (p) => (p.code ? <code>{p.code}</code> : '—') },
  { header: 'Credit', className: 'num', cell: (p) => formatPounds(p.creditAmount) },
  {
    header: 'Target',
    className: 'nowrap',
    cell: (p) => (p.targetUserType === 'all' ? 'All users' : 'New users'),
  },
  {
    header: 'Uses',
    className: 'num',
    cell: (p) => (
      <>
        {p.currentUses} / {p.totalMaxUses ?? '∞'}
        <br />
        <small>{p.maxUsesPerUser} per user</small>
      </>
    ),
  },
  {
    header: 'Valid',
    className: 'nowrap',
    cell: (p) => (
      <>
        {formatShortDate(p.validFrom)} – {p.validUntil ? formatShortDate(p.validUntil) : 'no end'}
      </>
    ),
  },
  {
    header: 'Status',
    cell: (p) => (
      <>
        <StatusBadge $status={p.isActive ? 'active' : 'ended'}>
          {p.isActive ? 'Active' : 'Inactive'}
        </StatusBadge>
        {p.autoApply && (
          <>
            <br />
            <small>Auto-apply</small>
          </>
        )}
      </>
    ),
  },
];

/** /admin/promos: Site Credit Promos, the Active and All tabs, the modal, delete, Reset All Credits. */
export default function AdminPromosPage() {
  const siteName = useSiteName();
  useEffect(() => {
    document.title = `Site Credit Promos | ${siteName}`;
  }, [siteName]);
  const [tab, setTab] = useState<Tab>('active');
  const list = useAdminRoute(
    ADMIN_ACCOUNT_ROUTES.promos,
    tab === 'active' ? { query: { active: 'true' } } : {},
  );
  const [editing, setEditing] = useState<PromoView | null | undefined>(undefined);
  const [resetting, setResetting] = useState(false);
  const { busy, run } = useAdminMutation();
  const deleting = useConfirmedDelete<PromoView>({
    remove: (promo) => call(ADMIN_ACCOUNT_ROUTES.deletePromo, { params: { id: promo.id } }),
    toasts: {
      success: (promo) => ({ title: 'Promo deleted successfully', description: promo.name }),
      failureTitle: 'Error',
      fallback: 'The promo could not be deleted',
    },
    refresh: list.reload,
  });

  const resetAll = async () => {
    const done = await run(
      () => call(ADMIN_ACCOUNT_ROUTES.resetAllCredits),
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
      <AdminTable
        label={tab === 'active' ? 'Active Promos' : 'All Promos'}
        rows={list.data}
        error={list.error}
        loadingLabel="Loading promos"
        errorText={(e) => messageOf(e, 'The promos could not be loaded')}
        empty={tab === 'active' ? 'No active promos.' : 'No promos yet.'}
        rowKey={(p) => p.id}
        rowTestId="promo-row"
        columns={PROMO_COLUMNS}
        actions={(p) => (
          <>
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
              onClick={() => deleting.ask(p)}
              aria-label={`Delete ${p.name}`}
            >
              Delete
            </Button>
          </>
        )}
      />
      <PromoFormDialog
        open={editing !== undefined}
        promo={editing ?? null}
        onClose={() => setEditing(undefined)}
        onSaved={() => {
          setEditing(undefined);
          list.reload();
        }}
      />
      <ConfirmDialog {...deleting.dialog} title="Delete Promo" confirmLabel="Delete">
        <p>
          Delete “{deleting.target?.name}”? The credit it gave is taken back from the accounts that received
          it (through their credit history). This cannot be undone.
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
