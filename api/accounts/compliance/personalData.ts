import type { Knex } from 'knex';
import { emailKeyOf } from '../../../contract/postal';
import { forgetAttempter } from '../../catalogue/skill/attempts';

// What erasing an account does to the rows beyond `users` that name the person (issue 35 §9,
// docs/compliance.md#personal-data-kept-after-deletion). Every table is covered by
// tests/api/accounts/erasure.test.ts, which searches every text column of the database after a
// deletion. Orders, entries and the ledger stay (accounting records of a deleted user).

export const ERASED = '[erased]';

/** What names the person: the exact strings to scrub wherever a record quotes them. */
export interface PersonalStrings {
  emails: string[];
  /** The username, the phone number as typed and as digits, the full name and postcard names. */
  others: string[];
}

const distinct = (values: Array<string | null | undefined>) => [
  ...new Set(values.map((v) => v?.trim() ?? '').filter((v) => v.length >= 3)),
];

/** Reads them before the user row is overwritten. */
export async function personalStringsOf(trx: Knex.Transaction, userId: number): Promise<PersonalStrings> {
  const user = (await trx('users')
    .where({ id: userId })
    .first('username', 'email', 'firstName', 'lastName', 'phoneNumber')) as {
    username: string;
    email: string;
    firstName: string | null;
    lastName: string | null;
    phoneNumber: string | null;
  };
  const tokenEmails = (await trx('accountTokens')
    .where({ userId })
    .whereNotNull('email')
    .pluck('email')) as string[];
  const postal = (await trx('postalEntries').where({ userId }).select('name', 'email')) as Array<{
    name: string;
    email: string;
  }>;
  const fullName = [user.firstName, user.lastName].filter(Boolean).join(' ');
  const phone = user.phoneNumber ?? '';
  // A name is scrubbed only whole ("Pat Penhallow"): a lone first name would also erase every
  // other Pat in the audit trail.
  const names = [fullName, ...postal.map((p) => p.name)].filter((n) => /\S\s+\S/.test(n));
  return {
    emails: distinct([user.email, ...tokenEmails, ...postal.map((p) => p.email)]).map((e) => e.toLowerCase()),
    others: distinct([user.username, phone, phone.replace(/\D/g, ''), ...names]),
  };
}

const escapeLike = (s: string) => `%${s.toLowerCase().replace(/[!%_]/g, '!$&')}%`;
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Replaces each of the strings in `text`, whatever its case, where it stands as a whole (not
 * inside a longer word: a username "sam" leaves "samphire" alone). Works on JSON text too, since
 * the replacement has no character JSON escapes.
 */
export function scrub(text: string, strings: string[]): string {
  return strings.reduce(
    (t, s) => t.replace(new RegExp(`(?<![\\w])${escapeRegExp(s)}(?![\\w])`, 'gi'), ERASED),
    text,
  );
}

/** The ids of rows whose column contains any of the strings (case-insensitive). */
async function rowsQuoting(trx: Knex.Transaction, table: string, columns: string[], strings: string[]) {
  if (!strings.length) return [];
  return (await trx(table)
    .where((q) => {
      for (const column of columns)
        for (const s of strings) q.orWhereRaw("lower(??) like ? escape '!'", [column, escapeLike(s)]);
    })
    .select('id', ...columns)) as Array<Record<string, string | null> & { id: number }>;
}

/** Scrubs the strings out of these columns of every row that quotes them. */
async function scrubColumns(trx: Knex.Transaction, table: string, columns: string[], strings: string[]) {
  for (const row of await rowsQuoting(trx, table, columns, strings)) {
    const values: Record<string, string | null> = {};
    for (const c of columns) values[c] = row[c] == null ? null : scrub(String(row[c]), strings);
    await trx(table).where({ id: row.id }).update(values);
  }
}

/**
 * Erases or anonymises the person's rows outside `users`, inside the erasure's transaction.
 * `placeholder` is the address the account now has (deleted-<id>@deleted.invalid).
 */
export async function erasePersonalData(
  trx: Knex.Transaction,
  userId: number,
  strings: PersonalStrings,
  placeholder: string,
): Promise<void> {
  const all = [...strings.emails, ...strings.others];
  // Links and their addresses (a pending change of address holds the new one); no use after this.
  await trx('accountTokens').where({ userId }).delete();
  // What they watched and which marketing e-mails they were owed (a campaign's drops then leave them out).
  await trx('watchlist').where({ userId }).delete();
  await trx('marketingMessages').where({ userId }).delete();
  // The second factor: the secret and the recovery codes are the person's alone.
  await trx('twoFactorRecoveryCodes').where({ userId }).delete();
  await trx('twoFactor').where({ userId }).delete();
  await forgetAttempter(trx, `u:${userId}`);

  // The mail log keeps that a message was sent (and when, and whether it failed), not to whom.
  const mailIds = (await rowsQuoting(trx, 'mailLog', ['recipient'], strings.emails)).map((r) => r.id);
  await trx('mailLog')
    .where((q) => q.where({ userId }).orWhereIn('id', mailIds))
    .update({ recipient: placeholder });
  await scrubColumns(trx, 'mailLog', ['subject', 'error'], all);

  // A complaint's record stays for the operator (reference, dates, status), not its text.
  const complaintIds = (await trx('complaints').where({ userId }).pluck('id')) as number[];
  await trx('complaints').whereIn('id', complaintIds).update({ subject: ERASED, message: ERASED });
  await trx('complaintReplies').whereIn('complaintId', complaintIds).update({ message: ERASED });

  // A postcard's entry stays (its number is in the draw), without the name and address on it.
  // Its keys become the account's own, so the per-person cap still counts its postcards together.
  const emailKeys = strings.emails.map(emailKeyOf);
  await trx('postalEntries')
    .where((q) => q.where({ userId }).orWhereIn('emailKey', emailKeys))
    .update({
      name: ERASED,
      email: placeholder,
      emailKey: placeholder,
      address: ERASED,
      postcode: '',
      addressKey: placeholder,
    });

  // The audit trail keeps every action; the values that named the person are scrubbed from it.
  await trx('auditLog')
    .where({ actorUserId: userId })
    .update({ actorUsername: `deleted-${userId}` });
  await scrubColumns(trx, 'auditLog', ['beforeJson', 'afterJson'], all);
}
