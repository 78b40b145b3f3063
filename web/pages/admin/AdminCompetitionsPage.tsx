import { useEffect, useState } from 'react';
import { Link, useLocation } from 'wouter';
import type { AdminCompetitionView } from '../../../contract/admin';
import { ADMIN_BACK_OFFICE_ROUTES } from '../../../contract/apiAdminBackOffice';
import { ADMIN_CATALOGUE_ROUTES } from '../../../contract/apiAdminCatalogue';
import { ADMIN_ORDER_ROUTES } from '../../../contract/apiAdminOrders';
import { DRAW_ROUTES } from '../../../contract/apiDraws';
import { formatDateTime, formatShortDate } from '../../../contract/londonTime';
import { formatPounds } from '../../../contract/money';
import { call, routePath } from '../../api/call';
import { apiDownload, messageOf } from '../../api/client';
import { type AdminColumn, AdminTable } from '../../components/admin/AdminTable';
import { AdminHeader, StatusBadge, Tabs } from '../../components/admin/AdminUi';
import { AdminWinnersTable } from '../../components/admin/AdminWinnersTable';
import { CompetitionFormDialog } from '../../components/admin/CompetitionFormDialog';
import { ConfirmDialog } from '../../components/admin/ConfirmDialog';
import { CsvLink } from '../../components/admin/CsvLink';
import { useAdminRoute } from '../../components/admin/useAdminData';
import { useConfirmedDelete } from '../../components/admin/useConfirmedDelete';
import { Button, ButtonLink } from '../../components/ui/Button';
import { PageContainer } from '../../components/ui/Page';
import { useSiteName } from '../../stores/site';
import { toast } from '../../stores/toast';

const TABS = [
  { key: 'active', label: 'Live' },
  { key: 'draft', label: 'Drafts' },
  { key: 'archived', label: 'Archived' },
  { key: 'ended', label: 'Ended' },
  { key: 'cancelled', label: 'Cancelled' },
] as const;
type Tab = (typeof TABS)[number]['key'] | 'winners';

/** A download icon (inline SVG: nothing is fetched from elsewhere). */
const DownloadIcon = () => (
  <svg
    width="18"
    height="18"
    viewBox="0 0 24 24"
    aria-hidden="true"
    fill="none"
    stroke="currentColor"
    strokeWidth="2"
  >
    <path d="M12 3v12m0 0-5-5m5 5 5-5M4 19h16" strokeLinecap="round" strokeLinejoin="round" />
  </svg>
);

/** Downloads a closed competition's purchases as CSV. */
async function exportCsv(c: AdminCompetitionView) {
  try {
    await apiDownload(
      routePath(ADMIN_ORDER_ROUTES.purchasesCsv, { params: { id: c.id } }),
      `competition-${c.id}.csv`,
    );
  } catch {
    toast({ title: 'Error', description: 'Failed to export competition data', variant: 'destructive' });
  }
}

/** The competition table: title (and auto-win), price, tickets sold of total, status and dates. */
const COMPETITION_COLUMNS: ReadonlyArray<AdminColumn<AdminCompetitionView>> = [
  {
    header: 'Title',
    cell: (c) => (
      <>
        <Link href={`/admin/competitions/${c.id}`}>{c.title}</Link>
        {c.autoWin && (
          <>
            {' '}
            <StatusBadge $status="admin">Auto-win</StatusBadge>
          </>
        )}
      </>
    ),
  },
  { header: 'Price', className: 'num', cell: (c) => formatPounds(c.ticketPrice) },
  {
    header: 'Total Tickets',
    className: 'num',
    cell: (c) => (
      <>
        {c.totalTickets.toLocaleString('en-GB')}
        <br />
        <small>{c.ticketsSold.toLocaleString('en-GB')} sold</small>
      </>
    ),
  },
  { header: 'Status', cell: (c) => <StatusBadge $status={c.status}>{c.status}</StatusBadge> },
  { header: 'End Date', className: 'nowrap', cell: (c) => formatDateTime(c.endDate) },
  { header: 'Created At', className: 'nowrap', cell: (c) => formatShortDate(c.createdAt) },
];

/** Delete, only where it would not be refused: one with sales can only be ended or archived. */
function DeleteButton({
  competition: c,
  onAsk,
}: {
  competition: AdminCompetitionView;
  onAsk: (c: AdminCompetitionView) => void;
}) {
  if (c.hasSales) return null;
  return (
    <Button type="button" $variant="ghost" onClick={() => onAsk(c)} aria-label={`Delete ${c.title}`}>
      Delete
    </Button>
  );
}

/** 'Duplicate', or 'Relist' for an ended one: a new draft, opened at once (its own admin page). */
function DuplicateButton({ competition: c }: { competition: AdminCompetitionView }) {
  const [, navigate] = useLocation();
  const relist = c.status === 'ended';
  const duplicate = async () => {
    try {
      const { id } = await call(ADMIN_CATALOGUE_ROUTES.duplicateCompetition, { params: { id: c.id } });
      toast({ title: relist ? 'Relisted as a draft' : 'Duplicated as a draft', description: c.title });
      navigate(`/admin/competitions/${id}`);
    } catch (err) {
      toast({
        title: 'Could not copy the competition',
        description: messageOf(err, 'Please try again.'),
        variant: 'destructive',
      });
    }
  };
  return (
    <Button
      type="button"
      $variant="ghost"
      onClick={() => void duplicate()}
      aria-label={`${relist ? 'Relist' : 'Duplicate'} ${c.title}`}
    >
      {relist ? 'Relist' : 'Duplicate'}
    </Button>
  );
}

/** /admin/competitions: the three tabs, the table, create/edit, delete and the CSV export. */
export default function AdminCompetitionsPage() {
  const siteName = useSiteName();
  useEffect(() => {
    document.title = `Manage Competitions | ${siteName}`;
  }, [siteName]);
  const list = useAdminRoute(ADMIN_CATALOGUE_ROUTES.adminCompetitions, {});
  const winners = useAdminRoute(DRAW_ROUTES.adminWinners, {});
  const [tab, setTab] = useState<Tab>('active');
  const [editing, setEditing] = useState<AdminCompetitionView | null | undefined>(undefined);
  const deleting = useConfirmedDelete<AdminCompetitionView>({
    remove: (competition) =>
      call(ADMIN_CATALOGUE_ROUTES.deleteCompetition, { params: { id: competition.id } }),
    toasts: {
      success: (competition) => ({ title: 'Competition deleted', description: competition.title }),
      failureTitle: 'Error deleting competition',
      fallback: 'The competition could not be deleted',
    },
    refresh: list.reload,
  });

  const all = list.data ?? [];
  const count = (t: (typeof TABS)[number]['key']) => all.filter((c) => c.status === t).length;
  const shown = all.filter((c) => c.status === tab);

  return (
    <PageContainer>
      <AdminHeader title="Manage Competitions">
        <Button type="button" onClick={() => setEditing(null)}>
          Create Competition
        </Button>
        <CsvLink route={ADMIN_BACK_OFFICE_ROUTES.liveCompetitionsCsv} fallbackName="live-competitions.csv">
          Live competitions CSV
        </CsvLink>
      </AdminHeader>
      <Tabs
        label="Competition status"
        tabs={[
          ...TABS.map((t): { key: Tab; label: string } => ({
            key: t.key,
            label: `${t.label} (${count(t.key)})`,
          })),
          { key: 'winners', label: `Winners (${winners.data?.length ?? '…'})` },
        ]}
        value={tab}
        onChange={setTab}
      />
      {tab === 'winners' ? (
        <AdminWinnersTable winners={winners.data} error={winners.error} onChanged={winners.reload} />
      ) : (
        <AdminTable
          label="Competitions"
          rows={list.data && shown}
          error={list.error}
          loadingLabel="Loading competitions"
          errorText={(e) => `Error loading competitions: ${messageOf(e, e.message)}`}
          empty={`No ${TABS.find((t) => t.key === tab)?.label.toLowerCase()} competitions.`}
          rowKey={(c) => c.id}
          rowTestId="competition-row"
          columns={COMPETITION_COLUMNS}
          actions={(c) => (
            <>
              <Link href={`/admin/competitions/${c.id}`} asChild>
                <ButtonLink $variant="ghost" aria-label={`Open ${c.title}`}>
                  Open
                </ButtonLink>
              </Link>
              <Button
                type="button"
                $variant="ghost"
                onClick={() => setEditing(c)}
                aria-label={`Edit ${c.title}`}
              >
                Edit
              </Button>
              <DuplicateButton competition={c} />
              <DeleteButton competition={c} onAsk={deleting.ask} />
              {c.status !== 'active' && (
                <Button
                  type="button"
                  $variant="ghost"
                  onClick={() => void exportCsv(c)}
                  aria-label={`Export ${c.title} as CSV`}
                  title="Export purchases as CSV"
                >
                  <DownloadIcon />
                </Button>
              )}
            </>
          )}
        />
      )}
      <CompetitionFormDialog
        open={editing !== undefined}
        competition={editing ?? null}
        onClose={() => setEditing(undefined)}
        onSaved={() => {
          setEditing(undefined);
          list.reload();
        }}
      />
      <ConfirmDialog
        {...deleting.dialog}
        title="Delete Competition"
        confirmLabel="Delete"
        testId="delete-competition-dialog"
      >
        <p>
          Delete “{deleting.target?.title}”? This cannot be undone. A competition that has sold tickets cannot
          be deleted: end or archive it instead.
        </p>
      </ConfirmDialog>
    </PageContainer>
  );
}
