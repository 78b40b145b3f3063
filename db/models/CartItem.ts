import type { RelationMappings } from 'objection';
import { BaseModel } from './BaseModel';

export class CartItem extends BaseModel {
  static override tableName = 'cartItems';
  static override jsonAttributes = ['selectedNumbers'];

  id!: number;
  guestId!: string;
  userId!: number | null;
  competitionId!: number;
  quantity!: number;
  selectedNumbers!: number[];
  reservedAt!: number;
  expiresAt!: number;
  /** When 'Keep my numbers' extended this hold (once at most); null until then. */
  keptAt!: number | null;
  createdAt!: number;
  updatedAt!: number;

  static override get relationMappings(): RelationMappings {
    return {
      competition: {
        relation: BaseModel.BelongsToOneRelation,
        modelClass: Competition,
        join: { from: 'cartItems.competitionId', to: 'competitions.id' },
      },
      tickets: {
        relation: BaseModel.HasManyRelation,
        modelClass: Ticket,
        join: { from: 'cartItems.id', to: 'tickets.cartItemId' },
      },
    };
  }
}

import { Competition } from './Competition';
import { Ticket } from './Ticket';
