import { useState } from 'react';
import { Link } from 'wouter';
import type { AdminWinner } from '../../../contract/draw';
import { Button } from '../ui/Button';
import { Muted, RowActions, Table, TableWrap } from './AdminUi';
import { formatDateTime, fullName } from './formatAdmin';
import { savePrizeDelivered } from './prizeDelivery';

/** Every drawn competition with its winner's contact and the prize's delivery (GET /api/admin/winners). */
export function AdminWinnersTable({ winners, onChanged }: { winners: AdminWinner[]; onChanged: () => void }) {
  const [busyId, setBusyId] = useState<number>();
  if (winners.length === 0) return <Muted>No competition has been drawn yet.</Muted>;
  const toggle = async (w: AdminWinner) => {
    setBusyId(w.competitionId);
    const updated = await savePrizeDelivered(w, !w.prizeDeliveredAt);
    setBusyId(undefined);
    if (updated) onChanged();
  };
  return (
    <TableWrap>
      <Table aria-label="Winners">
        <thead>
          <tr>
            <th>Competition</th>
            <th>Number</th>
            <th>Winner</th>
            <th>Drawn</th>
            <th>Prize delivered</th>
          </tr>
        </thead>
        <tbody>
          {winners.map((w) => (
            <tr key={w.competitionId} data-testid="winner-row">
              <td>
                <Link href={`/admin/competitions/${w.competitionId}`}>{w.title}</Link>
              </td>
              <td className="num">{w.winningNumber}</td>
              <td>
                {fullName(w.winner) || w.winnerName}
                {w.winner.email && (
                  <>
                    <br />
                    <small>
                      <a href={`mailto:${w.winner.email}`}>{w.winner.email}</a>
                    </small>
                  </>
                )}
              </td>
              <td className="nowrap">{formatDateTime(w.drawnAt)}</td>
              <td>
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
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
    </TableWrap>
  );
}
