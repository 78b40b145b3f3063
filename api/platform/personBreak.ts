import type { Knex } from 'knex';

// A person's break (self-exclusion, docs/compliance.md#the-exclusion-register), read in the same
// statement as the account: the account's own end, and the exclusion register's for its mailbox
// (a break started on another account of the same mailbox, or on a deleted one). Here, below the
// domains, because both the holds (api/tickets/holdChecks.ts) and marketing
// (platform/email/consent.ts) ask; the register itself is api/accounts/protection/exclusionRegister.ts.

/** The columns to select from `users` for breakEndOf. */
export const breakColumns = (db: Knex) => [
  'users.selfExcludedUntil',
  db('exclusionRegister')
    .max('endsAt')
    .where('exclusionRegister.keyHash', db.ref('users.mailboxKey'))
    .as('registeredUntil'),
];

export interface BreakColumns {
  selfExcludedUntil: number | string | null;
  registeredUntil: number | string | null;
}

/** When the person's break ends (epoch ms), or 0 when they never took one. */
export const breakEndOf = (row: BreakColumns | undefined): number =>
  Math.max(Number(row?.selfExcludedUntil ?? 0), Number(row?.registeredUntil ?? 0));
