import type { RelationMappings } from 'objection';
import { BaseModel } from './BaseModel';

export class UserEntry extends BaseModel {
  static override tableName = 'userEntries';
  static override jsonAttributes = ['ticketNumbers'];
  static override hasCreatedAt = false;
  static override hasUpdatedAt = false;

  id!: number;
  userId!: number;
  competitionId!: number;
  orderId!: number;
  ticketNumbers!: number[];
  purchasedAt!: number;

  static override get relationMappings(): RelationMappings {
    return {
      competition: {
        relation: BaseModel.BelongsToOneRelation,
        modelClass: Competition,
        join: { from: 'userEntries.competitionId', to: 'competitions.id' },
      },
    };
  }
}

import { Competition } from './Competition';
