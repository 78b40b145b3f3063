import * as v from 'valibot';
import { PROMO_CODE_RULES, type PublicUser } from './auth';
import { type BundleOffer, BundleOffersSchema } from './bundles';
import { capitalise, PUBLIC_CATEGORIES, type PublicCategory } from './categories';
import { type AdminOrderView, ORDER_STATUSES } from './checkout';
import { COMPETITION_STATUSES, SETTABLE_STATUSES } from './competitions';
import type { AdminDrawStatus, AdminWinner } from './draw';
import { numeric, wholeNumber } from './formNumbers';
import { type GalleryImage, GalleryInputSchema } from './gallery';
import { type AdminInstantWin, InstantWinListInputSchema } from './instantWins';
import { minimumSalesFields } from './minimumSales';
import { type PageInfo, pagingFields, searchText } from './paging';
import { type MainPrize, MainPrizesInputSchema } from './prizes';
import { type SkillPoolQuestion, SkillPoolQuestionSchema, SkillPoolSchema } from './skill';

// The admin back office (docs/product.md#admin): request bodies, queries and response shapes. Money is
// pounds here, as everywhere in the API; timestamps are ISO 8601.

/** The admin form's category options (docs/product.md#categories): the one list, capitalised. */
export const ADMIN_CATEGORIES: readonly AdminCategory[] = PUBLIC_CATEGORIES.map(
  capitalise,
) as AdminCategory[];
export type AdminCategory = Capitalize<PublicCategory>;
export const DEFAULT_ADMIN_CATEGORY: AdminCategory = 'Electronics';

/** The tab a status is listed under: the spec's Live tab shows active competitions. */
export const COMPETITION_TABS = {
  live: 'active',
  draft: 'draft',
  archived: 'archived',
  ended: 'ended',
  cancelled: 'cancelled',
} as const;

export const MAX_TOTAL_TICKETS = 100_000;
export const MAX_TICKET_PRICE_POUNDS = 10_000;

export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
/** Width or height beyond this is refused: no prize photo needs it, and decoders choke on it. */
export const UPLOAD_MAX_DIMENSION = 10_000;
/** Width × height beyond this is refused before decoding (a 4-channel 40 MP image is 160 MB). */
export const UPLOAD_MAX_PIXELS = 40_000_000;
export const UPLOAD_FIELD = 'image';
export const INVALID_FILE_TYPE = 'Invalid file type';
export const UPLOAD_TOO_LARGE = 'The image is too large. The maximum size is 5 MB.';
export const NO_IMAGE_SELECTED = 'Please select an image file first';

export const TICKET_NOT_FOUND = 'Ticket not found';
export const SELECT_COMPETITION = 'Please select a competition';
export const TICKET_NUMBER_RULE = 'Ticket number must be a positive integer';

const trimmed = (required: string, max: number, tooLong: string) =>
  v.pipe(v.string(required), v.trim(), v.nonEmpty(required), v.maxLength(max, tooLong));

/** A path on this site (/uploads/…, /images/…) or an http(s) URL; nothing that could run script. */
const IMAGE_URL = v.pipe(
  v.string('Image must be a URL'),
  v.trim(),
  v.maxLength(500, 'Image URL is too long'),
  v.regex(/^(\/(?!\/)[^\s]*|https?:\/\/[^\s]+)$/, 'Image must be an uploaded image URL'),
);

const isoOrEpoch = (message: string) =>
  v.pipe(
    v.union([v.string(message), v.number(message)], message),
    v.transform((x) => (typeof x === 'number' ? x : Date.parse(x))),
    v.check((ms) => Number.isFinite(ms), message),
  );

const CATEGORY_RULE = v.pipe(
  v.string('Category is required'),
  v.trim(),
  v.nonEmpty('Category is required'),
  v.transform((c) => ADMIN_CATEGORIES.find((a) => a.toLowerCase() === c.toLowerCase()) ?? c),
  v.picklist(ADMIN_CATEGORIES, `Category must be one of ${ADMIN_CATEGORIES.join(', ')}`),
);

const competitionFields = {
  title: trimmed('Title is required', 200, 'Title can be at most 200 characters'),
  description: v.pipe(
    v.string('Description must be text'),
    v.trim(),
    v.maxLength(5000, 'Description is too long'),
  ),
  image: v.nullable(IMAGE_URL),
  ticketPrice: v.pipe(
    numeric('Ticket price must be a positive number'),
    v.gtValue(0, 'Ticket price must be a positive number'),
    v.maxValue(MAX_TICKET_PRICE_POUNDS, 'Ticket price can be at most £10,000'),
    v.check((p) => Math.abs(p * 100 - Math.round(p * 100)) < 1e-6, 'Ticket price must be in whole pence'),
  ),
  totalTickets: v.pipe(
    wholeNumber('Total tickets must be at least 1'),
    v.minValue(1, 'Total tickets must be at least 1'),
    v.maxValue(MAX_TOTAL_TICKETS, 'Total tickets can be at most 100,000'),
  ),
  endDate: isoOrEpoch('End date must be a valid date'),
  autoWin: v.boolean('Auto-win must be true or false'),
  status: v.picklist(SETTABLE_STATUSES, 'Status must be draft, active, archived or ended'),
  /** A scheduled launch: nothing can be held before it (null: open at once). */
  startsAt: v.nullable(isoOrEpoch('Opening time must be a valid date')),
  features: v.pipe(
    v.union(
      [v.array(v.string('Each feature must be text')), v.string('Features must be a list')],
      'Features must be a list',
    ),
    // A textarea may send one feature per line.
    v.transform((f) => (typeof f === 'string' ? f.split('\n') : f).map((s) => s.trim()).filter(Boolean)),
    v.maxLength(20, 'At most 20 features'),
    v.check((f) => f.every((s) => s.length <= 200), 'Each feature can be at most 200 characters'),
  ),
  details: v.object(
    {
      category: CATEGORY_RULE,
      productName: v.optional(
        v.nullable(
          v.pipe(
            v.string('Product name must be text'),
            v.trim(),
            v.maxLength(200, 'Product name is too long'),
          ),
        ),
      ),
    },
    'Category is required',
  ),
  maxTicketsPerUser: v.nullable(
    v.pipe(
      wholeNumber('The per-person limit must be a whole number of at least 1'),
      v.minValue(1, 'The per-person limit must be a whole number of at least 1'),
      v.maxValue(MAX_TOTAL_TICKETS, 'The per-person limit is too large'),
    ),
  ),
  /** The older single-question field: a pool of one (null = the default question). */
  skillQuestion: v.nullable(SkillPoolQuestionSchema),
  /** The pool; empty = the default question. Sent with skillQuestion, this one wins. */
  skillQuestions: SkillPoolSchema,
  /** Pounds, or null when the prize has no cash alternative. */
  cashAlternative: v.nullable(
    v.pipe(
      numeric('The cash alternative must be a positive amount'),
      v.gtValue(0, 'The cash alternative must be a positive amount'),
      v.maxValue(10_000_000, 'The cash alternative is too large'),
      v.check(
        (p) => Math.abs(p * 100 - Math.round(p * 100)) < 1e-6,
        'The cash alternative must be in whole pence',
      ),
    ),
  ),
  /** Multi-buy offers in pounds (docs/product.md#multi-buy-pricing); [] or null: none. */
  bundles: v.nullable(BundleOffersSchema),
  /** What the prize is worth, in pounds (null: not stated); decides the winner's age check. */
  prizeValue: v.nullable(
    v.pipe(
      numeric('Prize value must be an amount in pounds'),
      v.minValue(0, 'Prize value must be an amount in pounds'),
      v.maxValue(100_000_000, 'Prize value is too large'),
      v.check((p) => Math.abs(p * 100 - Math.round(p * 100)) < 1e-6, 'Prize value must be in whole pence'),
    ),
  ),
};

/** POST /api/admin/competitions: the spec's defaults (1000 tickets, active, not auto-win). */
export const CompetitionCreateSchema = v.object({
  title: competitionFields.title,
  description: v.optional(competitionFields.description, ''),
  image: v.optional(competitionFields.image, null),
  ticketPrice: competitionFields.ticketPrice,
  totalTickets: v.optional(competitionFields.totalTickets, 1000),
  endDate: competitionFields.endDate,
  autoWin: v.optional(competitionFields.autoWin, false),
  status: v.optional(competitionFields.status, 'active'),
  startsAt: v.optional(competitionFields.startsAt, null),
  features: v.optional(competitionFields.features, []),
  details: competitionFields.details,
  maxTicketsPerUser: v.optional(competitionFields.maxTicketsPerUser, null),
  /** Omitted: the site's default question. */
  skillQuestion: v.optional(competitionFields.skillQuestion),
  skillQuestions: v.optional(competitionFields.skillQuestions),
  cashAlternative: v.optional(competitionFields.cashAlternative, null),
  prizeValue: v.optional(competitionFields.prizeValue, null),
  minTicketsSold: v.optional(minimumSalesFields.minTicketsSold, null),
  extendByDays: v.optional(minimumSalesFields.extendByDays, 7),
  maxExtensions: v.optional(minimumSalesFields.maxExtensions, 0),
  bundles: v.optional(competitionFields.bundles, null),
  /** The main prizes in draw order (docs/draws.md "Several prizes"); omitted or null: one, the title. */
  prizes: v.optional(MainPrizesInputSchema, null),
  /** Instant-win prizes (docs/draws.md#instant-wins); omitted: none. */
  instantWins: v.optional(InstantWinListInputSchema),
  /** The prize gallery (docs/product.md#prize-galleries); omitted: `image` alone, if any. */
  images: v.optional(GalleryInputSchema),
});
export type CompetitionCreateInput = v.InferOutput<typeof CompetitionCreateSchema>;

/** PUT /api/admin/competitions/:id: the same fields, each optional; what is sent is changed. */
export const CompetitionUpdateSchema = v.object({
  title: v.optional(competitionFields.title),
  description: v.optional(competitionFields.description),
  image: v.optional(competitionFields.image),
  ticketPrice: v.optional(competitionFields.ticketPrice),
  totalTickets: v.optional(competitionFields.totalTickets),
  endDate: v.optional(competitionFields.endDate),
  autoWin: v.optional(competitionFields.autoWin),
  status: v.optional(competitionFields.status),
  startsAt: v.optional(competitionFields.startsAt),
  features: v.optional(competitionFields.features),
  details: v.optional(competitionFields.details),
  maxTicketsPerUser: v.optional(competitionFields.maxTicketsPerUser),
  skillQuestion: v.optional(competitionFields.skillQuestion),
  skillQuestions: v.optional(competitionFields.skillQuestions),
  cashAlternative: v.optional(competitionFields.cashAlternative),
  prizeValue: v.optional(competitionFields.prizeValue),
  minTicketsSold: v.optional(minimumSalesFields.minTicketsSold),
  extendByDays: v.optional(minimumSalesFields.extendByDays),
  maxExtensions: v.optional(minimumSalesFields.maxExtensions),
  bundles: v.optional(competitionFields.bundles),
  prizes: v.optional(MainPrizesInputSchema),
  /** Replaces the whole instant-win list; 409 once a ticket was ever held or sold. */
  instantWins: v.optional(InstantWinListInputSchema),
  /** Replaces the whole gallery; `image` becomes its first picture. */
  images: v.optional(GalleryInputSchema),
});
export type CompetitionUpdateInput = v.InferOutput<typeof CompetitionUpdateSchema>;

/** GET /api/admin/competitions?status=live|active|archived|ended */
export const CompetitionTabQuerySchema = v.object({
  status: v.optional(
    v.pipe(
      v.picklist(
        ['live', ...COMPETITION_STATUSES],
        'status must be live, draft, active, archived, ended or cancelled',
      ),
      v.transform((s) => (s === 'live' ? 'active' : s)),
    ),
  ),
});

const positiveId = (message: string) =>
  v.pipe(v.string(message), v.regex(/^[1-9]\d{0,9}$/, message), v.transform(Number));

export const AdminIdParamSchema = v.object({ id: positiveId('The id must be a positive whole number') });
export const UserIdParamSchema = v.object({
  userId: positiveId('The user id must be a positive whole number'),
});

export const RoleChangeSchema = v.object({
  role: v.picklist(['user', 'admin'], 'Role must be user or admin'),
});

/** GET /api/admin/orders */
export const OrderListQuerySchema = v.object({
  status: v.optional(v.picklist(ORDER_STATUSES, `Status must be one of ${ORDER_STATUSES.join(', ')}`)),
  /** An order number (ORD-0000000012, #12 or 12), an e-mail address or part of one, or a username. */
  search: searchText,
  ...pagingFields(25),
});
export type OrderListQuery = v.InferOutput<typeof OrderListQuerySchema>;

/** GET /api/admin/tickets/lookup?competitionId=&number= (docs/product.md#admin-ticket-lookup). */
export const TicketLookupQuerySchema = v.object({
  competitionId: v.pipe(
    v.string(SELECT_COMPETITION),
    v.trim(),
    v.nonEmpty(SELECT_COMPETITION),
    v.regex(/^[1-9]\d{0,9}$/, SELECT_COMPETITION),
    v.transform(Number),
  ),
  number: v.pipe(
    v.string(TICKET_NUMBER_RULE),
    v.trim(),
    v.regex(/^[1-9]\d{0,8}$/, TICKET_NUMBER_RULE),
    v.transform(Number),
  ),
});

/** PUT /api/admin/hero-image: point the hero at an image already uploaded. */
/**
 * GET/PUT /api/admin/settings/ticket-cap: the per-person cap of every competition without its own
 * (docs/security.md, "Caps and hold limits").
 */
export const TicketCapSettingSchema = v.object({
  defaultMaxTicketsPerUser: v.pipe(
    wholeNumber('The default per-person limit must be a whole number of at least 1'),
    v.minValue(1, 'The default per-person limit must be a whole number of at least 1'),
    v.maxValue(MAX_TOTAL_TICKETS, 'The default per-person limit is too large'),
  ),
});
export type TicketCapSetting = v.InferOutput<typeof TicketCapSettingSchema>;

export const HeroImageSetSchema = v.object({
  imageUrl: v.pipe(
    v.string('imageUrl is required'),
    v.regex(
      /^\/uploads\/[a-f0-9]{32}(-[1-9]\d{0,4}x[1-9]\d{0,4})?\.(png|jpg|gif|webp)$/,
      'imageUrl must be an image uploaded to this site',
    ),
  ),
});

const poundsAmount = v.pipe(
  numeric('Credit amount is required'),
  v.minValue(0, 'Credit amount must be at least 0'),
  v.maxValue(10_000, 'Credit amount can be at most £10,000'),
  v.check((p) => Math.abs(p * 100 - Math.round(p * 100)) < 1e-6, 'Credit amount must be in whole pence'),
);

const promoFields = {
  name: trimmed('Name is required', 200, 'Name can be at most 200 characters'),
  description: v.nullable(
    v.pipe(v.string('Description must be text'), v.trim(), v.maxLength(2000, 'Description is too long')),
  ),
  creditAmount: poundsAmount,
  targetUserType: v.picklist(['new_user', 'all'], 'Target users must be new_user or all'),
  isActive: v.boolean('isActive must be true or false'),
  autoApply: v.boolean('autoApply must be true or false'),
  validFrom: isoOrEpoch('Valid from must be a date'),
  // The form sends an empty field as null.
  validUntil: v.nullable(
    v.pipe(
      v.union([
        v.literal(''),
        v.string('Valid until must be a date'),
        v.number('Valid until must be a date'),
      ]),
      v.transform((x) => (x === '' ? null : typeof x === 'number' ? x : Date.parse(x))),
      v.check((ms) => ms === null || Number.isFinite(ms), 'Valid until must be a date'),
    ),
  ),
  maxUsesPerUser: v.pipe(
    wholeNumber('Max uses per user must be at least 1'),
    v.minValue(1, 'Max uses per user must be at least 1'),
    v.maxValue(1_000_000, 'Max uses per user is too large'),
  ),
  totalMaxUses: v.pipe(
    wholeNumber('Total max uses must be at least 1'),
    v.minValue(1, 'Total max uses must be at least 1'),
    v.maxValue(100_000_000, 'Total max uses is too large'),
  ),
  // An empty field means no code: the promo is then only applied automatically.
  code: v.nullable(
    v.pipe(
      v.string('Promo code must be text'),
      v.trim(),
      v.toUpperCase(),
      v.transform((x) => (x === '' ? null : x)),
      v.nullable(PROMO_CODE_RULES),
    ),
  ),
};

/** POST /api/admin/promos, with the form's defaults (docs/product.md#admin-promos). */
export const PromoCreateSchema = v.object({
  name: promoFields.name,
  description: v.optional(promoFields.description, null),
  creditAmount: promoFields.creditAmount,
  targetUserType: v.optional(promoFields.targetUserType, 'new_user'),
  isActive: v.optional(promoFields.isActive, true),
  autoApply: v.optional(promoFields.autoApply, true),
  /** Omitted: from now ("today" in the form). */
  validFrom: v.optional(promoFields.validFrom),
  validUntil: v.optional(promoFields.validUntil, null),
  maxUsesPerUser: v.optional(promoFields.maxUsesPerUser, 1),
  totalMaxUses: v.optional(promoFields.totalMaxUses, 1000),
  code: v.optional(promoFields.code, null),
});
export type PromoCreateInput = v.InferOutput<typeof PromoCreateSchema>;

/** PUT /api/admin/promos/:id: what is sent is changed (validUntil after validFrom: checked by the service). */
export const PromoUpdateSchema = v.object({
  name: v.optional(promoFields.name),
  description: v.optional(promoFields.description),
  creditAmount: v.optional(promoFields.creditAmount),
  targetUserType: v.optional(promoFields.targetUserType),
  isActive: v.optional(promoFields.isActive),
  autoApply: v.optional(promoFields.autoApply),
  validFrom: v.optional(promoFields.validFrom),
  validUntil: v.optional(promoFields.validUntil),
  maxUsesPerUser: v.optional(promoFields.maxUsesPerUser),
  totalMaxUses: v.optional(promoFields.totalMaxUses),
  code: v.optional(promoFields.code),
});
export type PromoUpdateInput = v.InferOutput<typeof PromoUpdateSchema>;

export const PromoListQuerySchema = v.object({
  active: v.optional(v.picklist(['true', 'false', '1', '0'], 'active must be true or false')),
});

// Response shapes.

export interface AuditEntryView {
  id: number;
  at: string;
  action: string;
  entityType: string;
  entityId: string | null;
  actor: { id: number | null; username: string | null };
  before: unknown;
  after: unknown;
}

export interface AdminCompetitionView {
  id: number;
  title: string;
  description: string;
  /** The gallery's first picture (null: none). */
  image: string | null;
  /** The prize gallery, first picture first; a competition without one shows `image` alone. */
  images: GalleryImage[];
  ticketPrice: number;
  totalTickets: number;
  ticketsSold: number;
  endDate: string;
  /** ISO 8601: a scheduled launch; null: open at once. */
  startsAt: string | null;
  autoWin: boolean;
  status: (typeof COMPETITION_STATUSES)[number];
  features: string[];
  details: { category?: string; productName?: string };
  maxTicketsPerUser: number | null;
  /** Admins see the answers; the public API never does. The first question of the pool (or the default). */
  skillQuestion: SkillPoolQuestion;
  /** The pool as stored; empty = the default question. */
  skillQuestions: SkillPoolQuestion[];
  /** Pounds; null = no cash alternative. */
  cashAlternative: number | null;
  /** Pounds; null when not stated (the winner's age check then always applies). */
  prizeValue: number | null;
  /** The main prizes in draw order; a competition without a list has one, its title. */
  prizes: MainPrize[];
  /** Minimum sales (docs/product.md#minimum-sales-and-cancellation). */
  minTicketsSold: number | null;
  extendByDays: number;
  maxExtensions: number;
  extensionsUsed: number;
  cancellationReason: string | null;
  /** The cancellation's bulk refund, once cancelled (GET /api/admin/jobs/:jobId). */
  refundJobId?: number | null;
  /** Multi-buy offers in pounds, smallest first; [] when none. */
  bundles: BundleOffer[];
  createdAt: string;
  updatedAt: string;
  /** The list only: it has sales (sold tickets or order lines), so Delete would be refused. */
  hasSales?: boolean;
}

export interface AdminCompetitionDetail extends AdminCompetitionView {
  auditLog: AuditEntryView[];
  /** Where the draw stands: open, awaiting payments, ready, no sales (nothing to draw) or drawn. */
  drawStatus?: AdminDrawStatus;
  /** The result with the winner's details, once drawn. */
  draw?: AdminWinner | null;
  /** Instant wins with their numbers and state (docs/draws.md#instant-wins). */
  instantWinCommitment?: string | null;
  instantWins?: AdminInstantWin[];
}

/** The admin's user list shows each account exactly as its owner sees it. */
export type AdminUserView = PublicUser & {
  /** The list only: when the customer's self-exclusion ends (null: not taking a break). */
  selfExcludedUntil?: string | null;
};

export interface OrderListView extends PageInfo {
  orders: AdminOrderView[];
}

export interface TicketHistoryEntry {
  event: 'held' | 'sold' | 'released' | 'cancelled';
  at: string;
  orderId: number | null;
  userId: number | null;
  note: string | null;
}

export interface AdminOrderDetail extends AdminOrderView {
  paymentReference: string | null;
  refundReference: string | null;
  cancelledAt: string | null;
  /** The reason the admin gave when cancelling (quoted in the customer's e-mail). */
  cancellationReason?: string | null;
  /** Card refunds of some of its tickets: 'owed' until the gateway has done them (then 'sent'). */
  cardRefunds?: CardRefundView[];
  auditLog: AuditEntryView[];
}

export interface CardRefundView {
  amount: number;
  status: 'owed' | 'sent';
  createdAt: string;
  sentAt: string | null;
}

export interface TicketLookupResult {
  ticket: {
    id: number;
    number: number;
    status: 'reserved' | 'sold';
    userId: number | null;
    orderId: number | null;
    isClaimed: boolean;
    expiresAt: string | null;
    createdAt: string;
  };
  competition: { id: number; title: string; ticketPrice: number; endDate: string; status: string };
  user: {
    id: number;
    username: string;
    email: string;
    firstName: string | null;
    lastName: string | null;
  } | null;
  order: { id: number; orderNumber: string; status: string; total: number; createdAt: string } | null;
  history: TicketHistoryEntry[];
}

export interface PromoView {
  id: number;
  name: string;
  description: string | null;
  creditAmount: number;
  targetUserType: 'new_user' | 'all';
  isActive: boolean;
  validFrom: string;
  validUntil: string | null;
  maxUsesPerUser: number;
  totalMaxUses: number | null;
  currentUses: number;
  autoApply: boolean;
  /** What customers type to redeem it; null when it is only applied automatically. */
  code: string | null;
  createdAt: string;
  updatedAt: string;
}

export const UploadResultSchema = v.object({ success: v.literal(true), imageUrl: v.string() });
export type UploadResult = v.InferOutput<typeof UploadResultSchema>;

/** GET /api/admin/emails: `search` narrows to recipients containing it (case-insensitive). */
export const MailLogQuerySchema = v.object({
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(254, 'Search must be at most 254 characters'))),
});

/** How many e-mails 'E-mails sent' lists (the newest). */
export const MAIL_LOG_LIMIT = 200;

/** One row of the mail log ('E-mails sent'): what was sent to whom, when, and whether it went. */
export interface MailLogEntryView {
  id: number;
  recipient: string;
  userId: number | null;
  subject: string;
  /** The template's name, e.g. 'order-confirmation'. */
  template: string;
  /** 'waiting' and 'dropped': a marketing e-mail over the customer's daily allowance (docs/emails.md#marketing-e-mails). */
  status: 'sent' | 'failed' | 'waiting' | 'dropped';
  /** Why a failed e-mail failed, or why a marketing one waits or was dropped. */
  error: string | null;
  sentAt: string;
}
