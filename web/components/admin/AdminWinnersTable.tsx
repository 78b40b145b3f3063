import { useState } from 'react';
import { Link } from 'wouter';
import type { AdminWinner } from '../../../contract/draw';
import { formatDateTime } from '../../../contract/londonTime';
import { messageOf } from '../../api/client';
import { Button } from '../ui/Button';
import { AdminTable } from './AdminTable';
import { RowActions } from './AdminUi';
import { fullName } from './fullName';
import { savePrizeDelivered } from './prizeDelivery';

/** Every drawn competition with its winner's contact and the prize's delivery (GET /api/admin/winners). */
export function AdminWinnersTable({
  winners,
  error,
  onChanged,
}: {
  winners: AdminWinner[] | undefined;
  error: Error | undefined;
  onChanged: () => void;
}) {
  const [busyId, setBusyId] = useState<number>();
  const toggle = async (w: AdminWinner) => {
    setBusyId(w.competitionId);
    const updated = await savePrizeDelivered(w, !w.prizeDeliveredAt);
    setBusyId(undefined);
    if (updated) onChanged();
  };
  return (
    <AdminTable
      label="Winners"
      rows={winners}
      error={error}
      loadingLabel="Loading winners"
      errorText={(e) => `Error loading winners: ${messageOf(e, e.message)}`}
      empty="No competition has been drawn yet."
      rowKey={(w) => w.competitionId}
      rowTestId="winner-row"
      columns={[
        {
          header: 'Competition',
          cell: (w) => <Link href={`/admin/competitions/${w.competitionId}`}>{w.title}</Link>,
        },
        { header: 'Number', className: 'num', cell: (w) => w.winningNumber },
        {
          header: 'Winner',
          cell: (w) => {
            // A postal winner without an account: the postcard's name and e-mail.
            const postal = w.winner.postalEntry;
            const email = w.winner.email ?? postal?.email;
            return (
              <>
                {postal ? `Postal entry: ${postal.name}` : fullName(w.winner) || w.winnerName}
                {email && (
                  <>
                    <br />
                    <small>
                      <a href={`mailto:${email}`}>{email}</a>
                    </small>
                  </>
                )}
              </>
            );
          },
        },
        { header: 'Drawn', className: 'nowrap', cell: (w) => formatDateTime(w.drawnAt) },
        {
          header: 'Prize delivered',
          cell: (w) => (
            <RowActions>
              <span className="nowrap">
                {w.prizeDeliveredAt ? formatDateTime(w.prizeDeliveredAt) : 'Not yet'}
              </span>
              <Button
                type="button"
                $variant="ghost"
                disabled={busyId === w.competitionId}
                onClick={() => void toggle(w)}
                aria-label={`${w.prizeDeliveredAt ? 'Mark not delivered' : 'Mark prize delivered'}: ${w.title}`}
              >
                {w.prizeDeliveredAt ? 'Undo' : 'Mark delivered'}
              </Button>
            </RowActions>
          ),
        },
      ]}
    />
  );
}
