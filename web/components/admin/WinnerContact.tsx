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
  // A postal winner without an account is known by the postcard's name, e-mail and address.
  const postal = w.postalEntry;
  const email = w.email ?? postal?.email;
  return (
    <>
      <dt>Winner</dt>
      <dd data-testid="admin-winner-name">
        {postal
          ? `Postal entry: ${postal.name}`
          : w.userId === null || !w.username
            ? `${winnerName} (account deleted)`
            : `${fullName(w) || winnerName} (${w.username})`}
      </dd>
      {email && (
        <>
          <dt>E-mail</dt>
          <dd>
            <a href={`mailto:${email}`}>{email}</a>
          </dd>
        </>
      )}
      {postal && (
        <>
          <dt>Postal address</dt>
          <dd style={{ whiteSpace: 'pre-line' }}>{`${postal.address}\n${postal.postcode}`}</dd>
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
