// Who an e-mail about an entry goes to, and how it greets them: an account, or a postcard entered
// without one (its name and e-mail are all the site knows of that entrant).

export interface EntrantContact {
  userId?: number | string | null;
  email?: string | null;
  firstName?: string | null;
  username?: string | null;
  deletedAt?: unknown;
  postalEmail?: string | null;
  postalName?: string | null;
}

/** The account's address (none once deleted), else the postcard's. */
export const entrantAddress = (r: EntrantContact): string | null =>
  r.userId ? (r.deletedAt ? null : (r.email ?? null)) : (r.postalEmail ?? null);

/** The account's first name or username, else the postcard's first name. */
export const greetingOf = (r: EntrantContact): string =>
  r.firstName?.trim() || r.username || r.postalName?.trim().split(/\s+/)[0] || 'there';

/** One key per person: the account, or the postcard's mailbox. */
export const entrantKey = (r: EntrantContact, address: string): string =>
  r.userId ? `user:${r.userId}` : `postal:${address.toLowerCase()}`;
