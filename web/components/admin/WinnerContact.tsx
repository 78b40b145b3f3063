import { Link } from 'wouter';
import type { AdminPrizeWinner } from '../../../contract/prizes';
import { fullName } from './fullName';

/** The winner's name and account, e-mail and order: rows of a winner's facts (a <dl>). */
export function WinnerContact({
  winner: w,
  winnerName,
  orderId,
  orderNumber,
}: Pick<AdminPrizeWinner, 'winner' | 'winnerName' | 'orderId' | 'orderNumber'>) {
  return (
    <>
      <dt>Winner</dt>
      <dd>
        {w.userId === null || !w.username
          ? `${winnerName} (account deleted)`
          : `${fullName(w) || winnerName} (${w.username})`}
      </dd>
      {w.email && (
        <>
          <dt>E-mail</dt>
          <dd>
            <a href={`mailto:${w.email}`}>{w.email}</a>
          </dd>
        </>
      )}
      {orderId !== null && (
        <>
          <dt>Order</dt>
          <dd>
            <Link href={`/admin/orders/${orderId}`}>{orderNumber}</Link>
          </dd>
        </>
      )}
    </>
  );
}
