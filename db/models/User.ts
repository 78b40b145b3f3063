import type { RelationMappings } from 'objection';
import { BaseModel } from './BaseModel';

export type Role = 'user' | 'admin';

export class User extends BaseModel {
  static override tableName = 'users';
  static override booleanAttributes = ['marketingEmails'];

  id!: number;
  username!: string;
  email!: string;
  passwordHash!: string;
  firstName!: string | null;
  lastName!: string | null;
  phoneNumber!: string;
  /** The delivery address kept in My Profile (migration 033); null until given. */
  addressLine1!: string | null;
  addressLine2!: string | null;
  addressTown!: string | null;
  addressPostcode!: string | null;
  role!: Role;
  siteCreditPence!: number;
  /** Marketing consent: off until the customer ticks it; when it last changed. */
  marketingEmails!: boolean;
  marketingEmailsUpdatedAt!: number | null;
  /** When the current e-mail address was confirmed; null until then. */
  emailVerifiedAt!: number | null;
  /** YYYY-MM-DD; null for accounts made before it was asked (asked before their next purchase). */
  dateOfBirth!: string | null;
  /** When an admin checked an identity document, and which admin. */
  ageVerifiedAt!: number | null;
  ageVerifiedBy!: number | null;
  /** Player protection (migration 020): the limit now, a raise or removal waiting, self-exclusion. */
  monthlySpendLimitPence!: number | null;
  pendingSpendLimitPence!: number | null;
  pendingSpendLimitAt!: number | null;
  selfExcludedAt!: number | null;
  selfExcludedUntil!: number | null;
  /** The keyed hash of the normalised mailbox (migration 027), matched against the exclusion register. */
  mailboxKey!: string | null;
  /** How they appear in public (migration 045): 'initial' ("Jo S."), 'nickname' or 'anonymous'. */
  publicNameMode!: 'initial' | 'nickname' | 'anonymous';
  nickname!: string | null;
  /** The account's own referral code (docs/product.md#referrals), made on first ask. */
  referralCode!: string | null;
  deletedAt!: number | null;
  createdAt!: number;
  updatedAt!: number;

  static override get relationMappings(): RelationMappings {
    return {
      orders: {
        relation: BaseModel.HasManyRelation,
        modelClass: Order,
        join: { from: 'users.id', to: 'orders.userId' },
      },
      entries: {
        relation: BaseModel.HasManyRelation,
        modelClass: UserEntry,
        join: { from: 'users.id', to: 'userEntries.userId' },
      },
      creditTransactions: {
        relation: BaseModel.HasManyRelation,
        modelClass: CreditTransaction,
        join: { from: 'users.id', to: 'creditTransactions.userId' },
      },
    };
  }
}

import { CreditTransaction } from './CreditTransaction';
import { Order } from './Order';
import { UserEntry } from './UserEntry';
