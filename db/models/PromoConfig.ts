import { BaseModel } from './BaseModel';

export type PromoTarget = 'new_user' | 'all';

export class PromoConfig extends BaseModel {
  static override tableName = 'promoConfigs';
  static override booleanAttributes = ['isActive', 'autoApply'];

  id!: number;
  name!: string;
  description!: string | null;
  creditAmountPence!: number;
  targetUserType!: PromoTarget;
  isActive!: boolean;
  validFrom!: number;
  validUntil!: number | null;
  maxUsesPerUser!: number;
  totalMaxUses!: number | null;
  currentUses!: number;
  autoApply!: boolean;
  /** What a customer types to redeem it (upper case); null: applied automatically only. */
  code!: string | null;
  createdAt!: number;
  updatedAt!: number;
}
