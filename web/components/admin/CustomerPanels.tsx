import { type FormEvent, useState } from 'react';
import { ADMIN_BACK_OFFICE_ROUTES } from '../../../contract/apiAdminBackOffice';
import type { CustomerNoteView, CustomerView } from '../../../contract/backOffice';
import { formatDateTime } from '../../../contract/londonTime';
import { formatPounds } from '../../../contract/money';
import { call } from '../../api/call';
import { Button } from '../ui/Button';
import { Card } from '../ui/Page';
import { AdminTable } from './AdminTable';
import { Control, FieldRow, Muted } from './AdminUi';
import { useAdminMutation } from './useAdminMutation';

// The customer view's forms (web/pages/admin/AdminCustomerPage.tsx): a credit adjustment with its
// reason, notes, and the people the customer referred.

/** Adds (or, with a minus sign, takes away) site credit; the reason goes into the ledger row. */
export function CreditAdjustment({ customer, onSaved }: { customer: CustomerView; onSaved: () => void }) {
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const { busy, run } = useAdminMutation();
  const pounds = Number(amount);
  const valid = amount.trim() !== '' && Number.isFinite(pounds) && pounds !== 0 && reason.trim().length >= 3;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!valid) return;
    const done = await run(
      () =>
        call(ADMIN_BACK_OFFICE_ROUTES.adjustCredit, {
          params: { userId: customer.user.id },
          body: { amount: pounds, reason: reason.trim() },
        }),
      {
        success: (view) => ({
          title: 'Credit adjusted',
          description: `The balance is now ${formatPounds(view.creditBalance)}.`,
        }),
        failureTitle: 'Adjustment failed',
        fallback: 'The credit could not be adjusted',
      },
    );
    if (done) {
      setAmount('');
      setReason('');
      onSaved();
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} aria-label="Adjust credit">
      <FieldRow>
        <Control>
          <label htmlFor="credit-amount">Amount (£, minus to take away)</label>
          <input
            id="credit-amount"
            inputMode="decimal"
            value={amount}
            placeholder="5.00 or -5.00"
            onChange={(e) => setAmount(e.target.value)}
          />
        </Control>
        <Control>
          <label htmlFor="credit-reason">Reason (kept in the ledger)</label>
          <input
            id="credit-reason"
            value={reason}
            maxLength={200}
            onChange={(e) => setReason(e.target.value)}
          />
        </Control>
      </FieldRow>
      <p>
        <Button type="submit" disabled={busy || !valid}>
          Adjust Credit
        </Button>
      </p>
    </form>
  );
}

/** The admins' notes on the customer, newest first, and a box to add one. */
export function CustomerNotes({
  userId,
  notes,
  onSaved,
}: {
  userId: number;
  notes: CustomerNoteView[];
  onSaved: () => void;
}) {
  const [text, setText] = useState('');
  const { busy, run } = useAdminMutation();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim()) return;
    const done = await run(
      () => call(ADMIN_BACK_OFFICE_ROUTES.addNote, { params: { userId }, body: { text: text.trim() } }),
      {
        success: () => ({ title: 'Note added' }),
        failureTitle: 'Note not saved',
        fallback: 'The note could not be saved',
      },
    );
    if (done) {
      setText('');
      onSaved();
    }
  };
  return (
    <>
      <form onSubmit={(e) => void submit(e)} aria-label="Add a note">
        <Control>
          <label htmlFor="customer-note">New note</label>
          <textarea
            id="customer-note"
            value={text}
            maxLength={2000}
            onChange={(e) => setText(e.target.value)}
          />
        </Control>
        <p>
          <Button type="submit" $variant="secondary" disabled={busy || !text.trim()}>
            Add Note
          </Button>
        </p>
      </form>
      {notes.length === 0 ? (
        <Muted>No notes yet.</Muted>
      ) : (
        <ul data-testid="customer-notes">
          {notes.map((n) => (
            <li key={n.id}>
              <p style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{n.text}</p>
              <small>
                {n.admin ?? 'A former admin'}, {formatDateTime(n.createdAt)}
              </small>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

const REFERRAL_STATUS = { pending: 'Waiting', rewarded: 'Rewarded', refused: 'Not rewarded' } as const;

/** Who the customer referred (docs/product.md#referrals): each one's state and why any earned nothing. */
export function CustomerReferrals({ customer }: { customer: CustomerView }) {
  return (
    <Card aria-labelledby="referrals-title">
      <h2 id="referrals-title">Referrals</h2>
      {customer.referrals.length === 0 ? (
        <Muted>Nobody has joined with this customer's link.</Muted>
      ) : (
        <AdminTable
          label="Referrals"
          rows={customer.referrals}
          error={undefined}
          loadingLabel="Loading referrals"
          empty="No referrals."
          rowKey={(r) => r.id}
          rowTestId="referral-row"
          columns={[
            { header: 'Joined', className: 'nowrap', cell: (r) => formatDateTime(r.createdAt) },
            { header: 'Customer', cell: (r) => r.referredUsername },
            { header: 'State', cell: (r) => REFERRAL_STATUS[r.status] },
            {
              header: 'Reward or reason',
              cell: (r) => (r.reward !== null ? formatPounds(r.reward) : (r.reason ?? '—')),
            },
          ]}
        />
      )}
    </Card>
  );
}
