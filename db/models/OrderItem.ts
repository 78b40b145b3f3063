import type { RelationMappings } from 'objection';
import { BaseModel } from './BaseModel';

/** A snapshot of what was bought (title and price as they were at purchase time). */
export class OrderItem extends BaseModel {
  static override tableName = 'orderItems';
  static override jsonAttributes = ['selectedNumbers', 'ticketCosts'];
  static override hasUpdatedAt = false;

  id!: number;
  orderId!: number;
  competitionId!: number;
  title!: string;
  ticketPricePence!: number;
  quantity!: number;
  selectedNumbers!: number[];
  /** What the line cost (pence): bundles make it less than quantity × ticket price. */
  paidPence!: number;
  /** What each ticket cost (pence), in the order of selectedNumbers; null: each at the ticket price. */
  ticketCosts!: number[] | null;
  createdAt!: number;
  competition?: Competition;

  static override get relationMappings(): RelationMappings {
    return {
      competition: {
        relation: BaseModel.BelongsToOneRelation,
        modelClass: Competition,
        join: { from: 'orderItems.competitionId', to: 'competitions.id' },
      },
    };
  }
}

import { Competition } from './Competition';
