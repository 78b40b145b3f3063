import type { RelationMappings } from 'objection';
import { BaseModel } from './BaseModel';

export type OrderStatus = 'pending' | 'completed' | 'failed' | 'cancelled';
/** 'credit' = paid entirely with site credit, no card; 'postal' = a free postal entry's £0 order. */
export type PaymentProvider = 'stripe' | 'sandbox' | 'credit' | 'postal';

export class Order extends BaseModel {
  static override tableName = 'orders';

  id!: number;
  userId!: number | null;
  guestId!: string | null;
  paymentProvider!: PaymentProvider | string | null;
  paymentIntentId!: string | null;
  subtotalPence!: number;
  creditAppliedPence!: number;
  totalPence!: number;
  currency!: string;
  status!: OrderStatus;
  paidAt!: number | null;
  cancelledAt!: number | null;
  /** Hash of what the order was made from (items, numbers, prices, credit). */
  fingerprint!: string | null;
  /** A message for the customer about this order (e.g. replacement numbers). */
  notice!: string | null;
  failureMessage!: string | null;
  refundReason!: string | null;
  refundReference!: string | null;
  refundedPence!: number;
  /** The card's funding ('credit', 'debit', ...) recorded before it was charged; null otherwise. */
  cardFunding!: string | null;
  /** The card's brand ('visa', 'mastercard', ...) and last four digits, as the gateway reported them. */
  cardBrand!: string | null;
  cardLast4!: string | null;
  refundedAt!: number | null;
  confirmationSentAt!: number | null;
  /** When the customer was told the order was cancelled or refunded (once). */
  cancellationNoticeSentAt!: number | null;
  /** The reason an admin gave for cancelling it (quoted in the customer's e-mail). */
  cancellationReason!: string | null;
  createdAt!: number;
  updatedAt!: number;

  static override get relationMappings(): RelationMappings {
    return {
      items: {
        relation: BaseModel.HasManyRelation,
        modelClass: OrderItem,
        join: { from: 'orders.id', to: 'orderItems.orderId' },
      },
      instantWins: {
        relation: BaseModel.HasManyRelation,
        modelClass: InstantWin,
        join: { from: 'orders.id', to: 'instantWins.orderId' },
      },
      user: {
        relation: BaseModel.BelongsToOneRelation,
        modelClass: User,
        join: { from: 'orders.userId', to: 'users.id' },
      },
    };
  }
}

import { InstantWin } from './InstantWin';
import { OrderItem } from './OrderItem';
import { User } from './User';
