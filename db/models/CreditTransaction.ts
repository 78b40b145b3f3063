import { BaseModel } from './BaseModel';

/** One line of the site-credit ledger. amountPence is positive; type says which way it moves. */
export class CreditTransaction extends BaseModel {
  static override tableName = 'creditTransactions';
  static override hasUpdatedAt = false;

  id!: number;
  userId!: number;
  promoConfigId!: number | null;
  amountPence!: number;
  type!: 'credit' | 'debit';
  description!: string;
  orderId!: number | null;
  /** The referral this reward paid (UNIQUE: one reward per referral). */
  referralId!: number | null;
  createdAt!: number;
}
