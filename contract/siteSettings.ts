import type * as v from 'valibot';
import { type TicketCapSetting, TicketCapSettingSchema } from './admin';
import type { HeroImage } from './competitions';
import { type ComplianceSettings, ComplianceSettingsSchema } from './complaints';
import { penceToPounds, poundsToPence } from './money';
import { type PostalAddressSetting, PostalAddressSettingSchema } from './postal';
import {
  type CharitiesSetting,
  CharitiesSettingSchema,
  type Charity,
  charitiesFromText,
  charitiesToText,
  decodeCharities,
} from './promoter';
import { type OperatorSettings, OperatorSettingsSchema, type OperatorSettingsView } from './receipts';
import { type ReferralSettings, ReferralSettingsSchema } from './referrals';

// Every admin site setting, declared once: where it is stored (rows of `siteSettings`), its value
// until an admin sets it, the body its PUT takes, its audit action, and the card that edits it on
// /admin/site-settings. The server's reads, writes and routes (api/catalogue/settings.ts,
// api/catalogue/routes/siteSettings.ts) and the one card component
// (web/components/admin/SiteSettingCard.tsx) are built from these declarations.
// To add a setting: declare it here; add it to SETTING_CARDS to give it a card and routes.

/** One stored value: the `siteSettings` row `key`, written as `String(value)` (an object as JSON). */
export interface StoredField<T> {
  key: string;
  /** The value while no row exists. */
  default: T;
  /** The stored text as its value (may fall back to the default when the text is unusable). */
  decode: (text: string) => T;
}

/** A setting's stored values by name. */
export type SettingFields = Record<string, StoredField<unknown>>;

/** The values a setting's fields hold. */
export type StoredValues<F extends SettingFields> = {
  [K in keyof F]: F[K] extends StoredField<infer T> ? T : never;
};

/** How one input of a setting's card is edited: its label and its HTML input's attributes. */
export interface SettingControl {
  label: string;
  /** The input's id (default: the field's name in the PUT body). */
  id?: string;
  /** 'textarea' keeps line breaks (addresses). */
  kind: 'number' | 'text' | 'textarea';
  /** A number is shown with this many decimals (an amount in pounds). */
  decimals?: number;
  min?: number;
  max?: number;
  step?: number;
  inputMode?: 'numeric' | 'decimal';
  maxLength?: number;
  rows?: number;
  /** A value that is no plain text or number (a list): as the input shows it, and back. */
  toText?: (value: never) => string;
  fromText?: (text: string) => unknown;
}

/** The card on /admin/site-settings that edits a setting, with its screen texts. */
export interface SettingCardCopy<Input, View> {
  testId: string;
  title: string;
  intro: string;
  /** One control per field of the PUT body, in screen order. */
  controls: { [K in keyof Input & keyof View]: SettingControl };
  saveLabel: string;
  /** The success toast, from the PUT's answer. */
  saved(view: View): { title: string; description?: string };
  failureTitle: string;
}

export interface SiteSetting<F extends SettingFields, Input, View> {
  fields: F;
  /** The audit entry's action and entity id (entity type 'setting'). */
  audit: {
    action: string;
    id: string;
    /** What before/after record: the stored values (default) or the view. */
    record?: 'stored' | 'view';
  };
  /** The answer of GET and PUT, from the stored values. */
  toView(stored: StoredValues<F>): View;
  /** GET and PUT on this path; the PUT body must satisfy `schema`. */
  path?: string;
  schema?: v.GenericSchema<unknown, Input>;
  /** The values a valid PUT body stores. */
  fromInput?(input: Input): StoredValues<F>;
  card?: SettingCardCopy<Input, View>;
}

/** A setting with a card: GET and PUT on its path, edited on /admin/site-settings. */
export type CardSetting<F extends SettingFields, Input, View> = Required<
  Omit<SiteSetting<F, Input, View>, 'audit'>
> &
  Pick<SiteSetting<F, Input, View>, 'audit'>;

const asIs = <T>(value: T): T => value;
const text = (key: string): StoredField<string | null> => ({ key, default: null, decode: asIs });
const number = (key: string, fallback: number): StoredField<number> => ({
  key,
  default: fallback,
  decode: Number,
});

export const DEFAULT_HERO_IMAGE = '/images/hero-default.svg';
/** The site default per-person cap until an admin sets one: a real buyer rarely wants more. */
export const FALLBACK_DEFAULT_CAP = 100;

/** The home page's hero image: set by an upload, reset to the bundled default (no card). */
const heroImage: SiteSetting<{ imageUrl: StoredField<string | null> }, never, HeroImage> = {
  fields: { imageUrl: text('hero_image') },
  audit: { action: 'setting.hero_image', id: 'hero_image', record: 'view' },
  toView: ({ imageUrl }) =>
    imageUrl ? { imageUrl, isDefault: false } : { imageUrl: DEFAULT_HERO_IMAGE, isDefault: true },
};

/**
 * The per-person cap of every competition without its own (docs/security.md, "Caps and hold
 * limits"); the holds read it (api/tickets/holdChecks.ts), so a change applies to the next hold.
 */
const ticketCap: CardSetting<
  { defaultMaxTicketsPerUser: StoredField<number> },
  TicketCapSetting,
  TicketCapSetting
> = {
  path: '/api/admin/settings/ticket-cap',
  schema: TicketCapSettingSchema,
  fields: {
    defaultMaxTicketsPerUser: {
      key: 'default_max_tickets_per_user',
      default: FALLBACK_DEFAULT_CAP,
      decode: (stored) => {
        const n = Number(stored);
        return Number.isInteger(n) && n > 0 ? n : FALLBACK_DEFAULT_CAP;
      },
    },
  },
  audit: { action: 'setting.default_max_tickets_per_user', id: 'default_max_tickets_per_user' },
  toView: asIs,
  fromInput: asIs,
  card: {
    testId: 'ticket-cap-settings',
    title: 'Tickets per person',
    intro:
      "The most tickets one person (an account, or a guest's browser) may hold and buy in a competition that " +
      'has no limit of its own. Stops one visitor holding a whole competition.',
    controls: {
      defaultMaxTicketsPerUser: {
        label: 'Default limit per person',
        kind: 'number',
        inputMode: 'numeric',
        min: 1,
      },
    },
    saveLabel: 'Save limit',
    saved: (r) => ({
      title: 'Limit saved',
      description: `Competitions without their own limit now allow ${r.defaultMaxTicketsPerUser} tickets per person.`,
    }),
    failureTitle: 'Could not save the limit',
  },
};

/**
 * The promoter, the legal entity that runs the site: named in the footer, the Terms, every receipt
 * and every e-mail (null until set). No competition becomes active without all five.
 */
const operator: CardSetting<
  {
    operatorName: StoredField<string | null>;
    operatorAddress: StoredField<string | null>;
    companyNumber: StoredField<string | null>;
    phone: StoredField<string | null>;
    email: StoredField<string | null>;
  },
  OperatorSettings,
  OperatorSettingsView
> = {
  path: '/api/admin/settings/operator',
  schema: OperatorSettingsSchema,
  fields: {
    operatorName: text('operator_name'),
    operatorAddress: text('operator_address'),
    companyNumber: text('operator_company_number'),
    phone: text('operator_phone'),
    email: text('operator_email'),
  },
  audit: { action: 'setting.operator', id: 'operator' },
  toView: asIs,
  fromInput: asIs,
  card: {
    testId: 'operator-settings',
    title: 'Operator details',
    intro:
      'The promoter: the registered company that runs every competition. Its name and company number are in ' +
      'the footer of every page; all five details are in the Terms, on receipts and in every e-mail. ' +
      'No competition can be made active until they are filled in.',
    controls: {
      operatorName: { label: 'Operator name', kind: 'text', maxLength: 200 },
      companyNumber: { label: 'Company number', kind: 'text', maxLength: 10 },
      operatorAddress: { label: 'Operator address', kind: 'textarea', rows: 4, maxLength: 500 },
      phone: { id: 'operatorPhone', label: 'Phone', kind: 'text', maxLength: 30 },
      email: { id: 'operatorEmail', label: 'Email', kind: 'text', maxLength: 254 },
    },
    saveLabel: 'Save operator details',
    saved: () => ({
      title: 'Operator details saved',
      description: 'The footer, the Terms, receipts and e-mails now show them.',
    }),
    failureTitle: 'Could not save the operator details',
  },
};

/** The charities the site names (home page, About us), with their registration numbers. */
const charities: CardSetting<{ charities: StoredField<Charity[]> }, CharitiesSetting, CharitiesSetting> = {
  path: '/api/admin/settings/charities',
  schema: CharitiesSettingSchema,
  // One row holding the list as JSON text.
  fields: { charities: { key: 'charities', default: [], decode: decodeCharities } },
  audit: { action: 'setting.charities', id: 'charities' },
  toView: asIs,
  fromInput: asIs,
  card: {
    testId: 'charities-settings',
    title: 'Charities',
    intro:
      "The charities the home page and About us name. One a line: the charity's name, a comma, then its " +
      'registration number (for example: Example Hospice Trust, 1234567).',
    controls: {
      charities: {
        label: 'Charities',
        kind: 'textarea',
        rows: 5,
        toText: charitiesToText,
        fromText: charitiesFromText,
      },
    },
    saveLabel: 'Save charities',
    saved: (r) => ({
      title: 'Charities saved',
      description:
        r.charities.length === 0 ? 'The site names no charities.' : `The site names ${r.charities.length}.`,
    }),
    failureTitle: 'Could not save the charities',
  },
};

/** Where free postal entries are sent: on the Terms and every competition page (null until set). */
const postalAddress: CardSetting<
  { postalAddress: StoredField<string | null> },
  PostalAddressSetting,
  { postalAddress: string | null }
> = {
  path: '/api/admin/settings/postal-address',
  schema: PostalAddressSettingSchema,
  fields: { postalAddress: text('postal_entry_address') },
  audit: { action: 'setting.postal_address', id: 'postal_entry_address' },
  toView: asIs,
  fromInput: asIs,
  card: {
    testId: 'postal-address-settings',
    title: 'Free postal entry',
    intro: 'The address postcards are sent to, shown with equal prominence beside every way to buy.',
    controls: {
      postalAddress: {
        id: 'postalEntryAddress',
        label: 'Postal entry address',
        kind: 'textarea',
        rows: 4,
        maxLength: 500,
      },
    },
    saveLabel: 'Save postal entry address',
    saved: () => ({
      title: 'Postal entry address saved',
      description: 'The Terms and competition pages now show it.',
    }),
    failureTitle: 'Could not save the postal entry address',
  },
};

/**
 * The complaint deadline (docs/product.md#complaints) and the prize value above which a winner's
 * age must be verified (#age-checks). Stored in pence, shown and sent in pounds. Until the admin
 * sets them: answer complaints within 14 days; check the age of every winner.
 */
const compliance: CardSetting<
  { complaintResponseDays: StoredField<number>; ageCheckPrizeThresholdPence: StoredField<number> },
  ComplianceSettings,
  ComplianceSettings
> = {
  path: '/api/admin/settings/compliance',
  schema: ComplianceSettingsSchema,
  fields: {
    complaintResponseDays: number('complaint_response_days', 14),
    ageCheckPrizeThresholdPence: number('age_check_prize_threshold_pence', 0),
  },
  audit: { action: 'setting.compliance', id: 'compliance' },
  toView: (s) => ({
    complaintResponseDays: s.complaintResponseDays,
    ageCheckPrizeThreshold: penceToPounds(s.ageCheckPrizeThresholdPence),
  }),
  fromInput: (input) => ({
    complaintResponseDays: input.complaintResponseDays,
    ageCheckPrizeThresholdPence: poundsToPence(input.ageCheckPrizeThreshold),
  }),
  card: {
    testId: 'compliance-settings',
    title: 'Complaints and age checks',
    intro:
      'A complaint is due for a reply this many days after it arrives. A prize worth more than the threshold ' +
      '(or with no stated value) cannot be marked delivered until the winner is age-verified in Users.',
    controls: {
      complaintResponseDays: { label: 'Complaint response days', kind: 'number', min: 1, max: 56 },
      ageCheckPrizeThreshold: {
        label: 'Age check for prizes over (£)',
        kind: 'number',
        min: 0,
        step: 0.01,
        inputMode: 'decimal',
        decimals: 2,
      },
    },
    saveLabel: 'Save compliance settings',
    saved: () => ({ title: 'Compliance settings saved' }),
    failureTitle: 'Could not save the compliance settings',
  },
};

/**
 * Referrals (docs/product.md#referrals): the credit a referrer earns per qualifying referral, in
 * pence (shown in pounds), and how many such rewards one referrer may earn per UK calendar month.
 */
const referrals: CardSetting<
  { referralRewardPence: StoredField<number>; referralRewardsPerMonth: StoredField<number> },
  ReferralSettings,
  ReferralSettings
> = {
  path: '/api/admin/settings/referrals',
  schema: ReferralSettingsSchema,
  fields: {
    referralRewardPence: number('referral_reward_pence', 500),
    referralRewardsPerMonth: number('referral_rewards_per_month', 10),
  },
  audit: { action: 'setting.referrals', id: 'referrals' },
  toView: (s) => ({
    referralReward: penceToPounds(s.referralRewardPence),
    referralRewardsPerMonth: s.referralRewardsPerMonth,
  }),
  fromInput: (input) => ({
    referralRewardPence: poundsToPence(input.referralReward),
    referralRewardsPerMonth: input.referralRewardsPerMonth,
  }),
  card: {
    testId: 'referral-settings',
    title: 'Referrals',
    intro:
      'Site credit a customer earns when someone they referred confirms their e-mail address and pays for a ' +
      'first order of at least £5; at most this many rewards per referrer per UK calendar month.',
    controls: {
      referralReward: {
        label: 'Reward per referral (£)',
        kind: 'number',
        min: 0,
        step: 0.01,
        inputMode: 'decimal',
        decimals: 2,
      },
      referralRewardsPerMonth: {
        label: 'Rewards per referrer per month',
        kind: 'number',
        min: 0,
        max: 1000,
        inputMode: 'numeric',
      },
    },
    saveLabel: 'Save referral settings',
    saved: () => ({ title: 'Referral settings saved' }),
    failureTitle: 'Could not save the referral settings',
  },
};

export const SITE_SETTINGS = {
  heroImage,
  ticketCap,
  operator,
  charities,
  postalAddress,
  compliance,
  referrals,
};

/** A card setting with its types erased: what the routes and the card component loop over. */
export type AnyCardSetting = CardSetting<SettingFields, Record<string, unknown>, Record<string, unknown>>;

/** The settings edited on /admin/site-settings, in screen order (below the hero image). */
export const SETTING_CARDS: readonly AnyCardSetting[] = [
  ticketCap,
  operator,
  charities,
  postalAddress,
  compliance,
  referrals,
];
