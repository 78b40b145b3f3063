import { iso } from '../../../contract/dates';
import type { PostalEntryView } from '../../../contract/postal';

/** A postal entry row with its order's status and the linked account's username. */
export interface PostalEntryRow {
  id: number;
  number: number;
  name: string;
  email: string;
  address: string;
  postcode: string;
  receivedAt: number;
  answer: string | null;
  userId: number | null;
  username: string | null;
  orderId: number;
  orderStatus: string;
  createdAt: number;
}

export const presentPostalEntry = (r: PostalEntryRow): PostalEntryView => ({
  id: Number(r.id),
  number: Number(r.number),
  name: r.name,
  email: r.email,
  address: r.address,
  postcode: r.postcode,
  receivedAt: iso(r.receivedAt),
  answer: r.answer ?? null,
  userId: r.userId === null ? null : Number(r.userId),
  username: r.username ?? null,
  orderId: Number(r.orderId),
  status: r.orderStatus === 'cancelled' ? 'cancelled' : 'entered',
  recordedAt: iso(r.createdAt),
});
