import type { Knex } from 'knex';
import { TICKET_NOT_FOUND, type TicketLookupResult } from '../../../contract/admin';
import { formatOrderNumber } from '../../../contract/checkout';
import { iso } from '../../../contract/dates';
import { ERROR_CODES } from '../../../contract/errors';
import { penceToPounds } from '../../../contract/money';
import { Competition, Order, Ticket, User } from '../../../db/models';
import { HttpError, notFound } from '../../platform/errors';
import { ticketHistory } from './ticketHistory';

/**
 * A number of a competition that is sold or held now, with its buyer, order and history. An
 * available number is 'Ticket not found' (404), with its past history in details when it has one.
 */
export async function lookupTicket(
  db: Knex,
  competitionId: number,
  number: number,
  now = Date.now(),
): Promise<TicketLookupResult> {
  const competition = (await Competition.query(db).findById(competitionId)) as Competition | undefined;
  if (!competition) throw notFound('Competition not found');
  const ticket = (await Ticket.query(db)
    .where({ competitionId, number })
    .andWhere((q) => q.where('status', 'sold').orWhere('expiresAt', '>', now))
    .first()) as Ticket | undefined;
  const history = await ticketHistory(db, competitionId, number);
  if (!ticket) {
    throw new HttpError(
      404,
      ERROR_CODES.ticketNotFound,
      TICKET_NOT_FOUND,
      history.length ? { history } : undefined,
    );
  }
  const user = ticket.userId
    ? ((await User.query(db).findById(ticket.userId)) as User | undefined)
    : undefined;
  const order = ticket.orderId
    ? ((await Order.query(db).findById(ticket.orderId)) as Order | undefined)
    : undefined;
  return {
    ticket: {
      id: Number(ticket.id),
      number: ticket.number,
      status: ticket.status,
      userId: ticket.userId,
      orderId: ticket.orderId,
      isClaimed: ticket.isClaimed,
      expiresAt: ticket.expiresAt ? iso(ticket.expiresAt) : null,
      createdAt: iso(ticket.createdAt),
    },
    competition: {
      id: competition.id,
      title: competition.title,
      ticketPrice: penceToPounds(competition.ticketPricePence),
      endDate: iso(competition.endDate),
      status: competition.status,
    },
    user: user
      ? {
          id: user.id,
          username: user.username,
          email: user.email,
          firstName: user.firstName,
          lastName: user.lastName,
        }
      : null,
    order: order
      ? {
          id: order.id,
          orderNumber: formatOrderNumber(order.id),
          status: order.status,
          total: penceToPounds(order.totalPence),
          createdAt: iso(order.createdAt),
        }
      : null,
    history,
  };
}
