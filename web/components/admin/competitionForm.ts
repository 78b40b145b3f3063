import * as v from 'valibot';
import type { AdminCompetitionView } from '../../../contract/admin';
import { ADMIN_CATEGORIES, CompetitionCreateSchema, DEFAULT_ADMIN_CATEGORY } from '../../../contract/admin';
import { bundleProblem, bundlesToPence } from '../../../contract/bundles';
import type { CompetitionStatus } from '../../../contract/competitions';
import type { GalleryImage } from '../../../contract/gallery';
import { fromLondonFields, londonToday, toLondonFields } from '../../../contract/londonTime';
import { DEFAULT_EXTEND_BY_DAYS } from '../../../contract/minimumSales';
import { type InstantWinFormRow, instantWinBody, instantWinListErrors } from './instantWinForm';

// The create/edit form's values as typed, and the request body made from them. Kept apart from
// the dialog so the rules can be unit-tested.

export interface CompetitionFormValues {
  title: string;
  description: string;
  ticketPrice: string;
  totalTickets: string;
  endDate: string; // yyyy-mm-dd, London
  endTime: string; // hh:mm, London
  category: string;
  status: CompetitionStatus;
  startsDate: string; // yyyy-mm-dd, London; empty: open at once
  startsTime: string; // hh:mm, London
  productName: string;
  autoWin: boolean;
  features: string; // one per line
  /** The pictures, first first (docs/product.md#prize-galleries); the first is `image`. */
  images: GalleryImage[];
  maxTicketsPerUser: string; // empty: the site default (Site Settings)
  cashAlternative: string; // pounds; empty: none
  prizeValue: string; // pounds; empty: not stated (the winner's age is then always checked)
  minTicketsSold: string; // empty: no minimum (docs/product.md#minimum-sales-and-cancellation)
  extendByDays: string;
  maxExtensions: string;
  /** The skill question pool; empty: the site's default question. */
  questions: SkillFormQuestion[];
  /** The main prizes, 1st first; empty: one prize, the title (docs/draws.md "Several prizes"). */
  prizes: PrizeFormRow[];
  /**
   * The instant wins (docs/draws.md#instant-wins). null when editing and not replaced: the list
   * stays as it is (a PUT with a list replaces it, refused once a ticket was held or sold).
   */
  instantWins: InstantWinFormRow[] | null;
  /** Multi-buy offers, at most 4 (docs/product.md#multi-buy-pricing); empty: none. */
  bundles: BundleFormRow[];
}

export interface BundleFormRow {
  quantity: string;
  price: string; // pounds
}

export const emptyBundleRow = (): BundleFormRow => ({ quantity: '', price: '' });

export interface PrizeFormRow {
  title: string;
  description: string;
  cashValue: string; // pounds; empty: not stated
  cashAlternative: string; // pounds; empty: no cash alternative
  image: string | null; // uploaded when chosen; null: no picture
}

export const emptyPrizeRow = (): PrizeFormRow => ({
  title: '',
  description: '',
  cashValue: '',
  cashAlternative: '',
  image: null,
});

const poundsText = (pence: number | null) => (pence === null ? '' : (pence / 100).toFixed(2));

export interface SkillFormQuestion {
  question: string;
  options: string; // one per line
  answer: string;
}

export const emptySkillQuestion = (): SkillFormQuestion => ({ question: '', options: '', answer: '' });

export const DEFAULT_END_TIME = '20:00';

/** A new competition: the spec's defaults (1000 tickets, Electronics, active), drawn in 30 days. */
export function emptyCompetitionValues(now = Date.now()): CompetitionFormValues {
  return {
    title: '',
    description: '',
    ticketPrice: '',
    totalTickets: '1000',
    endDate: londonToday(now + 30 * 86_400_000),
    endTime: DEFAULT_END_TIME,
    category: DEFAULT_ADMIN_CATEGORY,
    status: 'active',
    startsDate: '',
    startsTime: '',
    productName: '',
    autoWin: false,
    features: '',
    images: [],
    maxTicketsPerUser: '',
    cashAlternative: '',
    prizeValue: '',
    minTicketsSold: '',
    extendByDays: String(DEFAULT_EXTEND_BY_DAYS),
    maxExtensions: '0',
    questions: [],
    prizes: [],
    instantWins: [],
    bundles: [],
  };
}

export function competitionValues(c: AdminCompetitionView): CompetitionFormValues {
  const end = toLondonFields(c.endDate);
  const category = ADMIN_CATEGORIES.find((a) => a.toLowerCase() === c.details.category?.toLowerCase());
  return {
    title: c.title,
    description: c.description,
    ticketPrice: c.ticketPrice.toFixed(2),
    totalTickets: String(c.totalTickets),
    endDate: end.date,
    endTime: end.time,
    // An old category outside the admin list must be chosen again (it is required).
    category: category ?? '',
    status: c.status,
    startsDate: c.startsAt ? toLondonFields(c.startsAt).date : '',
    startsTime: c.startsAt ? toLondonFields(c.startsAt).time : '',
    productName: c.details.productName ?? '',
    autoWin: c.autoWin,
    features: c.features.join('\n'),
    images: c.images.map(({ url, alt }) => ({ url, alt })),
    maxTicketsPerUser: c.maxTicketsPerUser === null ? '' : String(c.maxTicketsPerUser),
    cashAlternative: c.cashAlternative === null ? '' : c.cashAlternative.toFixed(2),
    prizeValue: c.prizeValue === null ? '' : c.prizeValue.toFixed(2),
    minTicketsSold: c.minTicketsSold === null ? '' : String(c.minTicketsSold),
    extendByDays: String(c.extendByDays),
    maxExtensions: String(c.maxExtensions),
    questions: c.skillQuestions.map((q) => ({
      question: q.question,
      options: q.options.join('\n'),
      answer: q.answer,
    })),
    prizes: isDefaultPrizeList(c)
      ? []
      : c.prizes.map((p) => ({
          title: p.title,
          description: p.description ?? '',
          cashValue: poundsText(p.cashValuePence),
          cashAlternative: poundsText(p.cashAlternativePence),
          image: p.image,
        })),
    instantWins: null,
    bundles: c.bundles.map((b) => ({ quantity: String(b.quantity), price: b.price.toFixed(2) })),
  };
}

/** One prize that is just the title: the default, shown as no list. */
const isDefaultPrizeList = (c: AdminCompetitionView) =>
  c.prizes.length === 1 &&
  c.prizes[0]!.title === c.title &&
  !c.prizes[0]!.description &&
  c.prizes[0]!.cashValuePence === null &&
  c.prizes[0]!.cashAlternativePence === null &&
  c.prizes[0]!.image === null;

/** Pounds as typed to pence; what is not a number goes as typed, for the schema to refuse. */
const penceOf = (pounds: string): number | string | null => {
  const t = pounds.trim();
  if (t === '') return null;
  const n = Number(t);
  return Number.isFinite(n) ? Math.round(n * 100) : t;
};

/** A typed number as a number; what is not one goes as typed, for the schema to refuse. */
const numberOf = (text: string): number | string => {
  const t = text.trim();
  return t !== '' && Number.isFinite(Number(t)) ? Number(t) : t;
};

export const lines = (text: string) =>
  text
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean);

/** The opening as an ISO time; null without a day; '' (invalid) for a day without a valid time. */
function startsAtOf(v: CompetitionFormValues): string | null {
  if (!v.startsDate) return null;
  const at = fromLondonFields(v.startsDate, v.startsTime || '00:00');
  return Number.isFinite(at) ? new Date(at).toISOString() : '';
}

/**
 * The body for POST/PUT /api/admin/competitions. Numbers stay strings where typed so the
 * contract's schema reports its own messages for them; an incomplete date becomes an empty string
 * (invalid), so 'End date must be a valid date' shows instead of a wrong instant.
 */
export function competitionBody(v: CompetitionFormValues) {
  const end = fromLondonFields(v.endDate, v.endTime);
  return {
    title: v.title,
    description: v.description,
    // The gallery decides the image: its first picture (sent too, for clients reading the body).
    image: v.images[0]?.url ?? null,
    images: v.images,
    ticketPrice: v.ticketPrice,
    totalTickets: v.totalTickets,
    endDate: Number.isFinite(end) ? new Date(end).toISOString() : '',
    autoWin: v.autoWin,
    status: v.status,
    startsAt: startsAtOf(v),
    features: lines(v.features),
    details: {
      category: v.category,
      ...(v.productName.trim() ? { productName: v.productName.trim() } : {}),
    },
    maxTicketsPerUser: v.maxTicketsPerUser.trim() === '' ? null : v.maxTicketsPerUser,
    cashAlternative: v.cashAlternative.trim() === '' ? null : v.cashAlternative,
    prizeValue: v.prizeValue.trim() === '' ? null : v.prizeValue,
    minTicketsSold: v.minTicketsSold.trim() === '' ? null : v.minTicketsSold,
    extendByDays: v.extendByDays,
    maxExtensions: v.maxExtensions,
    skillQuestions: v.questions.map((q) => ({
      question: q.question,
      options: lines(q.options),
      answer: q.answer,
    })),
    prizes: v.prizes.length
      ? v.prizes.map((p) => ({
          title: p.title,
          description: p.description.trim() || null,
          cashValuePence: penceOf(p.cashValue),
          cashAlternativePence: penceOf(p.cashAlternative),
          image: p.image,
        }))
      : null,
    ...(v.instantWins ? { instantWins: v.instantWins.map(instantWinBody) } : {}),
    bundles: v.bundles.map((b) => ({ quantity: numberOf(b.quantity), price: numberOf(b.price) })),
  };
}

/** Field keys of the body as the form names them (errors under `details` belong to Category). */
export function formFieldOf(path: ReadonlyArray<{ key: unknown }> | undefined): string {
  const [first, second] = (path ?? []).map((p) => String(p.key));
  if (first === 'details') return second === 'productName' ? 'productName' : 'category';
  // One question of the pool: 'skillQuestions.<index>.<field>', as the pool editor names it.
  if (first === 'bundles') return 'bundles';
  if (first === 'skillQuestions' || first === 'prizes' || first === 'images')
    return (path ?? []).map((p) => String(p.key)).join('.');
  // One instant win's field: 'instantWins.<index>.<field>' (a bad number names its field).
  if (first === 'instantWins')
    return (path ?? [])
      .slice(0, 3)
      .map((p) => String(p.key))
      .join('.');
  if (first === 'endDate') return 'endDate';
  return first ?? '_';
}

/** What the form would refuse before sending: the contract's messages, the instant wins, a past end day. */
export function competitionFormErrors(values: CompetitionFormValues, today: string): Record<string, string> {
  const found: Record<string, string> = {};
  const parsed = v.safeParse(CompetitionCreateSchema, competitionBody(values));
  if (!parsed.success) for (const i of parsed.issues) found[formFieldOf(i.path)] ??= i.message;
  // The server's rule too: each bundle a bargain at the ticket price, larger never worse per ticket.
  if (parsed.success && !found.bundles && parsed.output.bundles?.length) {
    const problem = bundleProblem(
      Math.round(parsed.output.ticketPrice * 100),
      bundlesToPence(parsed.output.bundles),
    );
    if (problem) found.bundles = problem;
  }
  if (values.instantWins)
    for (const [k, m] of Object.entries(
      instantWinListErrors(values.instantWins, Number(values.totalTickets)),
    ))
      found[k] ??= m;
  // The calendar offers no past day; a typed one is refused the same way.
  if (!found.endDate && values.endDate < today && values.status === 'active')
    found.endDate = 'End date must be in the future';
  return found;
}

/** The server's refused fields (dotted paths such as `prizes.0.title`) as the form's field keys. */
export function formFieldErrors(fields: Record<string, string>): Record<string, string> {
  const mapped: Record<string, string> = {};
  for (const [k, m] of Object.entries(fields))
    mapped[formFieldOf(k.split('.').map((key) => ({ key })))] ??= m;
  return mapped;
}
