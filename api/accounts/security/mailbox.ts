import { createHash } from 'node:crypto';

// Which addresses reach the same mailbox, for "one welcome credit per mailbox"
// (docs/product.md#account-security). Every address is compared in lower case. On the providers
// below, a "+tag" is ignored; Gmail also ignores dots in the name, and googlemail.com is gmail.com.
// Elsewhere "+" and dots may be significant, so nothing else is folded.

const GMAIL = new Set(['gmail.com', 'googlemail.com']);
const PLUS_TAGS = new Set([
  ...GMAIL,
  'outlook.com',
  'outlook.co.uk',
  'hotmail.com',
  'hotmail.co.uk',
  'live.com',
  'live.co.uk',
  'msn.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'protonmail.com',
  'proton.me',
  'pm.me',
  'fastmail.com',
]);

/** The canonical form of an address: e.g. "J.Smith+prizes@GoogleMail.com" is "jsmith@gmail.com". */
export function normaliseMailbox(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at < 1) return address;
  let local = address.slice(0, at);
  let domain = address.slice(at + 1);
  if (PLUS_TAGS.has(domain)) local = local.split('+')[0]!;
  if (GMAIL.has(domain)) {
    local = local.replaceAll('.', '');
    domain = 'gmail.com';
  }
  return `${local}@${domain}`;
}

/** What is stored for a mailbox that has had the welcome credit: a hash, not the address. */
export const mailboxHash = (email: string) =>
  createHash('sha256').update(normaliseMailbox(email)).digest('hex');
