import type { InstantWinKind } from '../../contract/instantWins';
import { BaseModel } from './BaseModel';

/** One instant-win number of a competition (docs/draws.md#instant-wins). */
export class InstantWin extends BaseModel {
  static override tableName = 'instantWins';
  static override hasUpdatedAt = false;

  id!: number;
  competitionId!: number;
  title!: string;
  kind!: InstantWinKind;
  amountPence!: number | null;
  description!: string | null;
  cashValuePence!: number | null;
  /** Secret until won or until the close. */
  number!: number;
  wonAt!: number | null;
  wonOrder!: number | null;
  userId!: number | null;
  orderId!: number | null;
  winnerName!: string | null;
  deliveredAt!: number | null;
  /** A cancelled order gave the prize back after its number was public: never won again. */
  retiredAt!: number | null;
  createdAt!: number;
}
