import type { RelationMappings } from 'objection';
import type { CompetitionStatus } from '../../contract/competitions';
import { BaseModel } from './BaseModel';

export interface CompetitionDetails {
  category?: string;
  productName?: string;
}

export class Competition extends BaseModel {
  static override tableName = 'competitions';
  static override jsonAttributes = ['features', 'details', 'skillQuestion'];
  static override booleanAttributes = ['autoWin'];

  id!: number;
  title!: string;
  description!: string;
  image!: string | null;
  ticketPricePence!: number;
  totalTickets!: number;
  ticketsSold!: number;
  endDate!: number;
  autoWin!: boolean;
  status!: CompetitionStatus;
  features!: string[];
  details!: CompetitionDetails;
  maxTicketsPerUser!: number | null;
  skillQuestion!: { question: string; options: string[] } | null;
  skillAnswer!: string | null;
  /** Secret until the draw (docs/draws.md); never presented before it. */
  drawSeed!: string | null;
  drawCommitment!: string | null;
  drawnAt!: number | null;
  /** What the prize is worth (null: not stated); a winner's age check depends on it. */
  prizeValuePence!: number | null;
  createdAt!: number;
  updatedAt!: number;

  static override get relationMappings(): RelationMappings {
    return {
      tickets: {
        relation: BaseModel.HasManyRelation,
        modelClass: Ticket,
        join: { from: 'competitions.id', to: 'tickets.competitionId' },
      },
    };
  }
}

import { Ticket } from './Ticket';
