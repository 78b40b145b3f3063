import * as v from 'valibot';
import { EMAIL_RULES } from './auth';
import { trimmed } from './receipts';

// The free postal entry route (docs/product.md#free-postal-entry): what an admin records for a
// postcard, what the back office lists, the CSV import's report, and the public facts the Terms
// and competition pages print. Timestamps are ISO 8601.

/** UK postcodes (outward code, a space or none, inward code), e.g. "TR1 2AB", "sw1a1aa". */
const UK_POSTCODE = /^[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}$/i;
export const POSTCODE_MESSAGE = 'Please enter a valid UK postcode';

/** The postcode as printed: capitals, one space before the inward code. */
export const formatPostcode = (postcode: string): string => {
  const compact = postcode.replace(/\s+/g, '').toUpperCase();
  return `${compact.slice(0, -3)} ${compact.slice(-3)}`;
};

/**
 * The keys that group one entrant without an account for the per-person cap: the e-mail in lower
 * case without a "+tag", and the address's words and the postcode without case or punctuation,
 * so "12 High St." and "12 high st" at "tr1 2ab" are one household.
 */
export const emailKeyOf = (email: string): string => {
  const [local = '', domain = ''] = email
    .trim()
    .toLowerCase()
    .split(/@(?=[^@]*$)/);
  return `${local.replace(/\+.*$/, '')}@${domain}`;
};
export const addressKeyOf = (address: string, postcode: string): string =>
  `${address
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()}|${postcode.replace(/\s+/g, '').toUpperCase()}`;

const RECEIVED_MESSAGE = 'Date received must be a date such as 2026-11-23';
const DAY_MS = 86_400_000;

/** YYYY-MM-DD or a full ISO 8601 time, not in the future: when the postcard arrived. */
const receivedAt = v.pipe(
  v.string(RECEIVED_MESSAGE),
  v.trim(),
  v.regex(/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/, RECEIVED_MESSAGE),
  v.check((s) => !Number.isNaN(Date.parse(s)), RECEIVED_MESSAGE),
  // A date alone is that day in UTC; it may be today in any UK time.
  v.check((s) => Date.parse(s) <= Date.now() + DAY_MS / 24, 'Date received cannot be in the future'),
  v.transform((s) => new Date(Date.parse(s)).toISOString()),
);

const USER_ID_MESSAGE = 'Customer account must be a user id (a positive whole number)';
/** An account id from JSON, or from a CSV cell (empty: none). */
const optionalUserId = v.optional(
  v.pipe(
    v.union([v.number(USER_ID_MESSAGE), v.pipe(v.string(USER_ID_MESSAGE), v.trim())], USER_ID_MESSAGE),
    v.transform((x) => (x === '' ? undefined : Number(x))),
    v.union([v.undefined(), v.pipe(v.number(), v.integer(USER_ID_MESSAGE), v.minValue(1, USER_ID_MESSAGE))]),
  ),
);

/** POST /api/admin/competitions/:id/postal-entries (and each row of the CSV import). */
export const PostalEntryInputSchema = v.object({
  name: trimmed('Name', 200),
  email: EMAIL_RULES,
  address: trimmed('Address', 500),
  postcode: v.pipe(
    v.string(POSTCODE_MESSAGE),
    v.trim(),
    v.regex(UK_POSTCODE, POSTCODE_MESSAGE),
    v.transform(formatPostcode),
  ),
  receivedAt,
  /** The postcard's answer to the skill question: a wrong one is refused (the Terms). */
  answer: trimmed('Answer to the skill question', 100),
  userId: optionalUserId,
});
export type PostalEntryInput = v.InferOutput<typeof PostalEntryInputSchema>;

/** The columns a day's CSV must have (a header row, any order); userId may be left out. */
export const POSTAL_CSV_COLUMNS = [
  'name',
  'email',
  'address',
  'postcode',
  'receivedAt',
  'answer',
  'userId',
] as const;

/** A postcard whose answer is not a correct answer to the competition's skill question (400). */
export const WRONG_POSTAL_ANSWER =
  "That is not the correct answer to this competition's skill question: the postcard is not entered.";

/** POST /api/admin/competitions/:id/postal-entries/import: the file's text. */
export const PostalImportSchema = v.object({
  csv: v.pipe(v.string('csv is required'), v.nonEmpty('The CSV file is empty')),
});

export const PostalEntryViewSchema = v.object({
  id: v.number(),
  number: v.number(),
  name: v.string(),
  email: v.string(),
  address: v.string(),
  postcode: v.string(),
  receivedAt: v.string(),
  /** null on entries recorded before answers were recorded. */
  answer: v.nullable(v.string()),
  userId: v.nullable(v.number()),
  username: v.nullable(v.string()),
  orderId: v.number(),
  /** 'cancelled' once an admin cancelled its order: the number went back on sale. */
  status: v.picklist(['entered', 'cancelled']),
  recordedAt: v.string(),
});
export type PostalEntryView = v.InferOutput<typeof PostalEntryViewSchema>;

export const PostalEntryCreatedSchema = v.object({ number: v.number(), entry: PostalEntryViewSchema });
export type PostalEntryCreated = v.InferOutput<typeof PostalEntryCreatedSchema>;

export const PostalEntryListSchema = v.object({ entries: v.array(PostalEntryViewSchema) });
export type PostalEntryList = v.InferOutput<typeof PostalEntryListSchema>;

export const PostalImportRowSchema = v.variant('outcome', [
  v.object({ row: v.number(), outcome: v.literal('entered'), name: v.string(), number: v.number() }),
  v.object({
    row: v.number(),
    outcome: v.literal('refused'),
    name: v.nullable(v.string()),
    reason: v.string(),
  }),
]);
export type PostalImportRow = v.InferOutput<typeof PostalImportRowSchema>;

export const PostalImportResultSchema = v.object({
  entered: v.number(),
  refused: v.number(),
  /** One per data row, in file order; `row` counts data rows from 1 (the header is not counted). */
  rows: v.array(PostalImportRowSchema),
});
export type PostalImportResult = v.InferOutput<typeof PostalImportResultSchema>;

/** PUT /api/admin/settings/postal-address: where postcards go; keeps its line breaks. */
export const PostalAddressSettingSchema = v.object({ postalAddress: trimmed('Postal entry address', 500) });
export type PostalAddressSetting = v.InferOutput<typeof PostalAddressSettingSchema>;

/** Postal entries are recorded within this many working days of arriving (the spec's promise). */
export const POSTAL_PROCESSING_DAYS = 5;

/** GET /api/entry-terms: the live settings the Terms and competition pages state. */
export const EntryTermsSchema = v.object({
  /** null until an admin sets it in Site Settings. */
  postalAddress: v.nullable(v.string()),
  holdMinutes: v.number(),
  defaultMaxTicketsPerUser: v.number(),
  postalProcessingDays: v.number(),
});
export type EntryTerms = v.InferOutput<typeof EntryTermsSchema>;
