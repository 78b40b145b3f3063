import type { RelationMappings } from 'objection';
import { BaseModel } from './BaseModel';

export type TicketStatus = 'reserved' | 'sold';

/** A number that is held (reserved, with an expiry) or sold. No row means the number is available. */
export class Ticket extends BaseModel {
  static override tableName = 'tickets';
  static override booleanAttributes = ['isClaimed'];

  id!: number;
  competitionId!: number;
  number!: number;
  status!: TicketStatus;
  cartItemId!: number | null;
  guestId!: string | null;
  userId!: number | null;
  orderId!: number | null;
  isClaimed!: boolean;
  expiresAt!: number | null;
  createdAt!: number;
  updatedAt!: number;

  static override get relationMappings(): RelationMappings {
    return {
      competition: {
        relation: BaseModel.BelongsToOneRelation,
        modelClass: Competition,
        join: { from: 'tickets.competitionId', to: 'competitions.id' },
      },
      user: {
        relation: BaseModel.BelongsToOneRelation,
        modelClass: User,
        join: { from: 'tickets.userId', to: 'users.id' },
      },
      order: {
        relation: BaseModel.BelongsToOneRelation,
        modelClass: Order,
        join: { from: 'tickets.orderId', to: 'orders.id' },
      },
    };
  }
}

import { Competition } from './Competition';
import { Order } from './Order';
import { User } from './User';
