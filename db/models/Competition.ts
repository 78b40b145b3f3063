import type { RelationMappings } from 'objection';
import type { Bundle } from '../../contract/bundles';
import type { CompetitionStatus } from '../../contract/competitions';
import type { GalleryImage } from '../../contract/gallery';
import type { MainPrize } from '../../contract/prizes';
import type { SkillPoolQuestion } from '../../contract/skill';
import { BaseModel } from './BaseModel';

export interface CompetitionDetails {
  category?: string;
  productName?: string;
}

export class Competition extends BaseModel {
  static override tableName = 'competitions';
  static override jsonAttributes = [
    'features',
    'details',
    'skillQuestions',
    'mainPrizes',
    'bundles',
    'images',
  ];
  static override booleanAttributes = ['autoWin'];

  id!: number;
  title!: string;
  description!: string;
  /** The gallery's first picture (kept in step with `images`). */
  image!: string | null;
  /** The prize gallery (docs/product.md#prize-galleries); null: `image` alone, if any. */
  images!: GalleryImage[] | null;
  ticketPricePence!: number;
  totalTickets!: number;
  ticketsSold!: number;
  endDate!: number;
  /** A scheduled launch (epoch ms): nothing can be held before it; null: open since creation. */
  startsAt!: number | null;
  /** When the opening was announced (`competition.opened`), once. */
  openedAt!: number | null;
  /** Minimum sales (docs/product.md#minimum-sales-and-cancellation): null, no minimum. */
  minTicketsSold!: number | null;
  extendByDays!: number;
  maxExtensions!: number;
  extensionsUsed!: number;
  /** A cancelled competition: why (shown on its page and in the e-mails) and when. */
  cancellationReason!: string | null;
  cancelledAt!: number | null;
  autoWin!: boolean;
  status!: CompetitionStatus;
  features!: string[];
  details!: CompetitionDetails;
  maxTicketsPerUser!: number | null;
  /** The skill question pool (docs/product.md#skill-question); null or empty = the default question. */
  skillQuestions!: SkillPoolQuestion[] | null;
  cashAlternativePence!: number | null;
  /** Secret until the draw (docs/draws.md); never presented before it. */
  drawSeed!: string | null;
  drawCommitment!: string | null;
  drawnAt!: number | null;
  /** The beacon round the draw waits for (docs/draws.md "Version 2"): public once fixed. */
  drawBeaconChain!: string | null;
  drawBeaconPublicKey!: string | null;
  drawBeaconRound!: number | null;
  drawBeaconDueAt!: number | null;
  /** When the entries became final (the round was fixed), and what the round was computed from. */
  drawEntriesFinalAt!: number | null;
  drawBeaconDelayMs!: number | null;
  drawBeaconGenesis!: number | null;
  drawBeaconPeriod!: number | null;
  drawBeaconRandomness!: string | null;
  drawBeaconSignature!: string | null;
  /** Admin only: the last failure to fetch or check the round. */
  drawBeaconError!: string | null;
  drawBeaconErrorAt!: number | null;
  /** The admin whose 'Draw now' decided the draw, when the draw job completes it later. */
  drawRequestedByUserId!: number | null;
  drawRequestedBy!: string | null;
  /** What the prize is worth (null: not stated); a winner's age check depends on it. */
  prizeValuePence!: number | null;
  /** The main prizes in draw order (docs/draws.md "Several prizes"); null: one prize, the title. */
  mainPrizes!: MainPrize[] | null;
  /** Multi-buy offers in pence (docs/product.md#multi-buy-pricing); null: none. */
  bundles!: Bundle[] | null;
  /** Instant wins (docs/draws.md#instant-wins): the salt is secret until the close. */
  instantWinSalt!: string | null;
  instantWinCommitment!: string | null;
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
