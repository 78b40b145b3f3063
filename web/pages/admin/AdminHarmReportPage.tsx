import { type FormEvent, useEffect, useState } from 'react';
import { ADMIN_ACCOUNT_ROUTES } from '../../../contract/apiAdminAccounts';
import { formatDateTime, formatShortDate } from '../../../contract/londonTime';
import { formatPence, poundsToPence } from '../../../contract/money';
import {
  formatLimit,
  HARM_ACTIONS,
  type HarmAction,
  type HarmReportRow,
  type HarmReportView,
} from '../../../contract/protection';
import { call } from '../../api/call';
import { messageOf } from '../../api/client';
import { AdminTable } from '../../components/admin/AdminTable';
import { AdminHeader, Control, DialogActions, Muted, Toolbar } from '../../components/admin/AdminUi';
import { useAdminRoute } from '../../components/admin/useAdminData';
import { useAdminMutation } from '../../components/admin/useAdminMutation';
import { Button } from '../../components/ui/Button';
import { Dialog } from '../../components/ui/Dialog';
import { PageContainer } from '../../components/ui/Page';
import { useSiteName } from '../../stores/site';

function ReviewDialog({
  row,
  onClose,
  onSaved,
}: {
  row: HarmReportRow | undefined;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [action, setAction] = useState<HarmAction>('contacted');
  const [note, setNote] = useState('');
  const { busy, run } = useAdminMutation();
  useEffect(() => {
    if (row) setNote('');
  }, [row]);
  const save = async () => {
    if (!row) return;
    const done = await run(
      () =>
        call(ADMIN_ACCOUNT_ROUTES.addHarmReview, { params: { userId: row.userId }, body: { action, note } }),
      {
        success: () => ({ title: 'Review recorded', description: row.username }),
        failureTitle: 'Review not recorded',
        fallback: 'The review could not be saved',
      },
    );
    if (done !== undefined) onSaved();
  };
  return (
    <Dialog open={row !== undefined} onClose={onClose} title="Record a review" testId="harm-review-dialog">
      <p>What was done about {row?.username}'s spending?</p>
      <Control>
        <label htmlFor="harm-action">Action</label>
        <select id="harm-action" value={action} onChange={(e) => setAction(e.target.value as HarmAction)}>
          {Object.entries(HARM_ACTIONS).map(([key, label]) => (
            <option key={key} value={key}>
              {label}
            </option>
          ))}
        </select>
      </Control>
      <Control>
        <label htmlFor="harm-note">Note</label>
        <textarea id="harm-note" value={note} maxLength={2000} onChange={(e) => setNote(e.target.value)} />
      </Control>
      <DialogActions>
        <Button type="button" $variant="ghost" onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button type="button" onClick={() => void save()} disabled={busy || note.trim() === ''}>
          Save review
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function Thresholds({ report, onSaved }: { report: HarmReportView | undefined; onSaved: () => void }) {
  const [day, setDay] = useState('');
  const [month, setMonth] = useState('');
  const { busy, run } = useAdminMutation();
  useEffect(() => {
    if (!report) return;
    setDay(String(report.thresholds.spend24hPence / 100));
    setMonth(String(report.thresholds.spend30dPence / 100));
  }, [report]);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const body = { spend24hPence: poundsToPence(Number(day)), spend30dPence: poundsToPence(Number(month)) };
    const done = await run(() => call(ADMIN_ACCOUNT_ROUTES.setHarmThresholds, { body: body }), {
      success: () => ({ title: 'Thresholds saved' }),
      failureTitle: 'Thresholds not saved',
      fallback: 'The thresholds could not be saved',
    });
    if (done !== undefined) onSaved();
  };
  return (
    <form onSubmit={(e) => void submit(e)} aria-label="Report thresholds">
      <Toolbar>
        <Control>
          <label htmlFor="harm-24h">Spent in 24 hours (£)</label>
          <input id="harm-24h" inputMode="decimal" value={day} onChange={(e) => setDay(e.target.value)} />
        </Control>
        <Control>
          <label htmlFor="harm-30d">Spent in 30 days (£)</label>
          <input id="harm-30d" inputMode="decimal" value={month} onChange={(e) => setMonth(e.target.value)} />
        </Control>
        <Button type="submit" $variant="secondary" disabled={busy || !report}>
          Save thresholds
        </Button>
      </Toolbar>
    </form>
  );
}

const limitText = (r: HarmReportRow) => {
  const now = r.monthlySpendLimitPence === null ? 'None' : formatLimit(r.monthlySpendLimitPence);
  if (!r.pendingSpendLimit) return now;
  const next =
    r.pendingSpendLimit.monthlySpendLimitPence === null
      ? 'none'
      : formatLimit(r.pendingSpendLimit.monthlySpendLimitPence);
  return `${now} (${next} from ${formatShortDate(r.pendingSpendLimit.effectiveAt)})`;
};

/**
 * /admin/harm-report: customers whose paid spending in 24 hours or 30 days reaches the thresholds,
 * with their limits and breaks; the operator records what was done (audited).
 */
export default function AdminHarmReportPage() {
  const siteName = useSiteName();
  useEffect(() => {
    document.title = `Harm Report | ${siteName}`;
  }, [siteName]);
  const report = useAdminRoute(ADMIN_ACCOUNT_ROUTES.harmReport, {});
  const [reviewing, setReviewing] = useState<HarmReportRow>();

  return (
    <PageContainer>
      <AdminHeader title="Harm Report" />
      <Muted>
        Customers whose paid orders reach either threshold. Record a review once you have looked at one.
      </Muted>
      <Thresholds report={report.data} onSaved={report.reload} />
      <AdminTable
        label="Customers to review"
        rows={report.data?.rows}
        error={report.error}
        loadingLabel="Loading the report"
        errorText={(e) => `Error loading the report: ${messageOf(e, e.message)}`}
        empty="No customer has reached the thresholds."
        rowKey={(r) => r.userId}
        rowTestId="harm-row"
        columns={[
          { header: 'Customer', cell: (r) => `${r.username} (${r.email})` },
          { header: '24 hours', className: 'num', cell: (r) => formatPence(r.spent24hPence) },
          { header: '30 days', className: 'num', cell: (r) => formatPence(r.spent30dPence) },
          { header: 'Monthly limit', cell: limitText },
          {
            header: 'Taking a break',
            className: 'nowrap',
            cell: (r) => (r.selfExcludedUntil ? `Until ${formatShortDate(r.selfExcludedUntil)}` : '—'),
          },
          {
            header: 'Last review',
            cell: (r) => {
              const last = r.reviews[0];
              if (!last) return 'Not reviewed';
              return `${HARM_ACTIONS[last.action]}: ${last.note} (${last.adminName ?? 'former admin'}, ${formatDateTime(last.createdAt)})`;
            },
          },
        ]}
        actions={(r) => (
          <Button
            type="button"
            $variant="ghost"
            onClick={() => setReviewing(r)}
            aria-label={`Record a review of ${r.username}`}
          >
            Record review
          </Button>
        )}
      />
      <ReviewDialog
        row={reviewing}
        onClose={() => setReviewing(undefined)}
        onSaved={() => {
          setReviewing(undefined);
          report.reload();
        }}
      />
    </PageContainer>
  );
}
