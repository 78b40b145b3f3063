import * as v from 'valibot';

// Winners claim their prize (docs/draws.md#7-claiming-a-prize): a delivery address kept in My
// Profile, and a claim per prize won, answered before its deadline with the prize or its cash
// alternative. The server validates with these schemas; the forms reuse them.

/** The claim window: 14 days from the win (the Terms' 'Cash Alternatives'). */
export const CLAIM_WINDOW_DAYS = 14;
export const CLAIM_WINDOW_MS = CLAIM_WINDOW_DAYS * 24 * 60 * 60 * 1000;

/**
 * A UK postcode, in any case and with or without its space (the GOV.UK shape: outward code of an
 * area and a district, inward code of a sector and a unit), and GIR 0AA.
 */
export const UK_POSTCODE =
  /^(GIR ?0AA|[A-PR-UWYZ]([0-9]{1,2}|[A-HK-Y][0-9]{1,2}|[0-9][A-HJKPSTUW]|[A-HK-Y][0-9][ABEHMNPRVWXY]) ?[0-9][ABD-HJLNP-UW-Z]{2})$/i;

/** 'sw1a1aa' -> 'SW1A 1AA': upper case, one space before the last three characters. */
export const formatPostcode = (raw: string): string => {
  const compact = raw.replace(/\s+/g, '').toUpperCase();
  return `${compact.slice(0, -3)} ${compact.slice(-3)}`;
};

const line = (required: string, max: number) =>
  v.pipe(v.string(required), v.trim(), v.nonEmpty(required), v.maxLength(max, `At most ${max} characters`));

/** PUT /api/user/delivery-address, and the address a claim confirms. */
export const DeliveryAddressSchema = v.object({
  line1: line('Please enter the first line of your address', 200),
  line2: v.optional(
    v.pipe(v.string('The second line must be text'), v.trim(), v.maxLength(200, 'At most 200 characters')),
    '',
  ),
  town: line('Please enter your town or city', 100),
  postcode: v.pipe(
    v.string('Please enter your postcode'),
    v.trim(),
    v.nonEmpty('Please enter your postcode'),
    v.regex(UK_POSTCODE, 'Please enter a valid UK postcode, such as SW1A 1AA'),
    v.transform(formatPostcode),
  ),
});
export type DeliveryAddress = v.InferOutput<typeof DeliveryAddressSchema>;

export const CLAIM_CHOICES = ['prize', 'cash'] as const;
export type ClaimChoice = (typeof CLAIM_CHOICES)[number];

/** POST /api/claims/:id: the address to deliver to (or the cash's contact) and the choice. */
export const ClaimSubmitSchema = v.object({
  address: DeliveryAddressSchema,
  choice: v.picklist(CLAIM_CHOICES, 'Choose the prize or the cash alternative'),
});

export type ClaimSubmit = v.InferInput<typeof ClaimSubmitSchema>;

/** A claim link whose token is wrong, altered, or another claim's (403; 400 when it is not even of a link's shape): nothing is shown or changed. */
export const CLAIM_LINK_INVALID =
  'This claim link is not valid. Open the link from your winner e-mail exactly as it was sent, or contact us.';

/**
 * The token of a postal winner's claim link (/claims/:id?token=…): 32 random bytes, base64url.
 * Anything else, or none, is not a link of ours (400 with the wrong token's words).
 */
const claimToken = v.pipe(
  v.string(CLAIM_LINK_INVALID),
  v.trim(),
  v.regex(/^[A-Za-z0-9_-]{43}$/, CLAIM_LINK_INVALID),
);

/** GET /api/claims/:id/link?token=…: a postal winner's claim, opened with the e-mailed link. */
export const ClaimLinkQuerySchema = v.object({ token: claimToken });

/** POST /api/claims/:id/link: the e-mailed link's token with the answer. */
export const ClaimLinkSubmitSchema = v.object({ ...ClaimSubmitSchema.entries, token: claimToken });

/** Path parameter :id of a claim. */
export const ClaimIdParamSchema = v.object({
  id: v.pipe(v.string(), v.regex(/^[1-9]\d{0,9}$/, 'Claim not found'), v.transform(Number)),
});

/** awaiting: open; claimed: answered; expired: the deadline passed unanswered (the operator decides). */
export type ClaimStatus = 'awaiting' | 'claimed' | 'expired';

/** A claim as its winner sees it (GET /api/claims, /api/claims/:id). */
export interface ClaimView {
  id: number;
  kind: 'main' | 'instant';
  competitionId: number;
  /** The instant win claimed (kind 'instant'), else null. */
  instantWinId: number | null;
  competitionTitle: string;
  /** '2nd prize: Smart watch', or an instant win's title. */
  prize: string;
  /** Pounds; null when the prize has no cash alternative. */
  cashAlternative: number | null;
  /** Site credit won by a postcard without an account: paid as its value in cash, the only choice. */
  cashOnly: boolean;
  status: ClaimStatus;
  choice: ClaimChoice | null;
  address: DeliveryAddress | null;
  phoneNumber: string | null;
  claimedAt: string | null;
  deadline: string;
}

const AddressViewSchema = v.object({
  line1: v.string(),
  line2: v.string(),
  town: v.string(),
  postcode: v.string(),
});

/** A prize's claim in the admin's winner panel: the contact as confirmed (or as on the account until then). */
export const AdminClaimSchema = v.object({
  id: v.number(),
  status: v.picklist(['awaiting', 'claimed', 'expired']),
  choice: v.nullable(v.picklist(CLAIM_CHOICES)),
  /** ISO 8601. */
  claimedAt: v.nullable(v.string()),
  deadline: v.string(),
  /** Pounds; null: none offered. */
  cashAlternative: v.nullable(v.number()),
  phoneNumber: v.nullable(v.string()),
  address: v.nullable(AddressViewSchema),
});
export type AdminClaimView = v.InferOutput<typeof AdminClaimSchema>;

/** One line of an address for screens and e-mails: '1 High St, Flat 2, Bristol, BS1 4DJ'. */
export const addressLine = (a: DeliveryAddress): string =>
  [a.line1, a.line2, a.town, a.postcode].filter(Boolean).join(', ');

export const CLAIM_NOT_FOUND = 'Claim not found.';
/** After the deadline nothing is chosen for the winner: the operator decides (docs/draws.md#7-claiming-a-prize). */
export const CLAIM_CLOSED_NEXT = 'Contact us: we decide case by case what happens to the prize.';
export const CLAIM_CLOSED = `The claim window for this prize has closed. ${CLAIM_CLOSED_NEXT}`;
export const CLAIM_ALREADY_MADE = 'This prize has already been claimed.';
export const NO_CASH_ALTERNATIVE = 'This prize has no cash alternative.';
/** Site credit needs an account: won by post without one, it is paid as cash (docs/draws.md#7-claiming-a-prize). */
export const CASH_ONLY = 'This prize is paid as cash: choose the cash alternative.';
/** A claim link after its claim's deadline (410): the link works for the claim window only. */
export const CLAIM_LINK_EXPIRED = `This claim link has expired with the claim window. ${CLAIM_CLOSED_NEXT}`;
