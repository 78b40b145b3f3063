import { useState } from 'react';
import { ADMIN_CATALOGUE_ROUTES } from '../../../contract/apiAdminCatalogue';
import type { AdminInstantWin } from '../../../contract/instantWins';
import { formatDateTime } from '../../../contract/londonTime';
import { formatPence } from '../../../contract/money';
import { call } from '../../api/call';
import { messageOf } from '../../api/client';
import { toast } from '../../stores/toast';
import { Button } from '../ui/Button';
import { Muted, Table, TableWrap } from './AdminUi';
import { ClaimFacts, ClaimList } from './ClaimFacts';

const prizeValueText = (w: AdminInstantWin) =>
  w.kind === 'credit'
    ? `${formatPence(w.amountPence ?? 0)} site credit`
    : `Prize${w.cashValuePence === null ? '' : ` (cash value ${formatPence(w.cashValuePence)})`}`;

/**
 * Every instant win of a competition with its number and state (docs/draws.md#instant-wins): not
 * yet won, or who won it, when and in which order; physical prizes are marked delivered here.
 */
export function InstantWinsList({
  competitionId,
  wins,
  onChanged,
}: {
  competitionId: number;
  wins: AdminInstantWin[];
  onChanged: () => void;
}) {
  const [busy, setBusy] = useState(false);
  if (!wins.length) return <Muted>No instant wins.</Muted>;
  const setDelivered = async (w: AdminInstantWin, delivered: boolean) => {
    setBusy(true);
    try {
      await call(ADMIN_CATALOGUE_ROUTES.setInstantWinDelivered, {
        params: { id: competitionId, prizeId: w.id },
        body: { delivered },
      });
      toast({
        title: delivered ? 'Instant win marked delivered' : 'Instant win marked not delivered',
        description: `${w.title} (ticket ${w.number})`,
        variant: 'success',
      });
      onChanged();
    } catch (err) {
      toast({
        title: 'Could not update the instant win',
        description: messageOf(err, 'Please try again.'),
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <TableWrap>
      <Table data-testid="admin-instant-wins">
        <thead>
          <tr>
            <th scope="col">Number</th>
            <th scope="col">Prize</th>
            <th scope="col">State</th>
            <th scope="col">Delivery</th>
          </tr>
        </thead>
        <tbody>
          {[...wins]
            .sort((a, b) => a.number - b.number)
            .map((w) => (
              <tr key={w.id} data-testid="admin-instant-win">
                <td>{w.number}</td>
                <td>
                  {w.title}
                  <br />
                  <small>{prizeValueText(w)}</small>
                  {w.description && (
                    <>
                      <br />
                      <small>{w.description}</small>
                    </>
                  )}
                </td>
                <td>
                  {w.won && w.winner ? (
                    <>
                      Won by {w.winner.displayName}
                      {w.wonAt && <> on {formatDateTime(w.wonAt)}</>}
                      {w.wonOrder !== null && <> (instant win no. {w.wonOrder})</>}
                      {w.winner.orderId !== null && (
                        <>
                          <br />
                          <small>Order {w.winner.orderId}</small>
                        </>
                      )}
                      {w.claim && (
                        <ClaimList data-testid="instant-win-claim">
                          <ClaimFacts claim={w.claim} />
                        </ClaimList>
                      )}
                    </>
                  ) : w.retiredAt ? (
                    <>
                      Retired {formatDateTime(w.retiredAt)}: its order was cancelled and its number was public
                    </>
                  ) : (
                    'Not yet won'
                  )}
                </td>
                <td>
                  {w.kind === 'credit' ? (
                    w.won ? (
                      'Credit paid'
                    ) : (
                      '—'
                    )
                  ) : !w.won ? (
                    '—'
                  ) : (
                    <>
                      {w.deliveredAt ? `Delivered ${formatDateTime(w.deliveredAt)}` : 'Not delivered'}{' '}
                      <Button
                        type="button"
                        $variant={w.deliveredAt ? 'ghost' : 'secondary'}
                        disabled={busy}
                        aria-label={`${w.deliveredAt ? 'Undo delivered' : 'Mark delivered'}: ticket ${w.number}`}
                        onClick={() => void setDelivered(w, !w.deliveredAt)}
                      >
                        {w.deliveredAt ? 'Undo' : 'Mark delivered'}
                      </Button>
                    </>
                  )}
                </td>
              </tr>
            ))}
        </tbody>
      </Table>
    </TableWrap>
  );
}
