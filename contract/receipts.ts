import * as v from 'valibot';
import { OrderViewSchema } from './checkout';

/** A required text field: trimmed, not empty, at most `max` characters; messages name the field. */
export const trimmed = (field: string, max: number) =>
  v.pipe(
    v.string(`${field} is required`),
    v.trim(),
    v.nonEmpty(`${field} is required`),
    v.maxLength(max, `${field} must be at most ${max} characters`),
  );

const COMPANY_NUMBER_MESSAGE = 'Company number must be 8 characters, like 01234567 or SC123456';
/**
 * A Companies House number: eight digits (England and Wales), or two letters and six digits
 * (SC Scotland, NI Northern Ireland, OC/SO/NC LLPs, R0 old NI). Spaces are dropped, letters capitalised.
 */
export const CompanyNumberSchema = v.pipe(
  v.string(COMPANY_NUMBER_MESSAGE),
  v.transform((s) => s.replace(/\s+/g, '').toUpperCase()),
  v.regex(/^(?:\d{8}|(?:SC|NI|OC|SO|NC|R0)\d{6})$/, COMPANY_NUMBER_MESSAGE),
);

const PHONE_MESSAGE = 'Phone must be a UK phone number, like 01632 960123';
/** A UK number as people write it (spaces, brackets, dashes, +44): 10 or 11 digits from its 0. */
export const UkPhoneSchema = v.pipe(
  v.string(PHONE_MESSAGE),
  v.trim(),
  v.maxLength(30, PHONE_MESSAGE),
  v.regex(/^\+?[0-9][0-9 ()-]*$/, PHONE_MESSAGE),
  v.check(isUkPhone, PHONE_MESSAGE),
);

function isUkPhone(text: string): boolean {
  const digits = text.replace(/\D/g, '');
  const national = text.startsWith('+') ? (digits.startsWith('44') ? `0${digits.slice(2)}` : '') : digits;
  return /^0\d{9,10}$/.test(national);
}

const EMAIL_MESSAGE = 'Email must be an e-mail address, like hello@example.com';
export const ContactEmailSchema = v.pipe(
  v.string(EMAIL_MESSAGE),
  v.trim(),
  v.maxLength(254, EMAIL_MESSAGE),
  v.email(EMAIL_MESSAGE),
);

/**
 * PUT /api/admin/settings/operator: the promoter, the legal entity that runs the site: named in the
 * footer, the Terms, every receipt and every e-mail. The address keeps its line breaks.
 */
export const OperatorSettingsSchema = v.object({
  operatorName: trimmed('Operator name', 200),
  operatorAddress: trimmed('Operator address', 500),
  companyNumber: CompanyNumberSchema,
  phone: UkPhoneSchema,
  email: ContactEmailSchema,
});
export type OperatorSettings = v.InferOutput<typeof OperatorSettingsSchema>;

/** GET /api/admin/settings/operator: each null until the admin has set them. */
export type OperatorSettingsView = { [K in keyof OperatorSettings]: string | null };

/** GET /api/orders/:id/receipt: a paid order, with the seller as the site settings name it. */
export const ReceiptViewSchema = v.object({
  order: OrderViewSchema,
  seller: v.object({
    name: v.string(),
    /** null until the admin sets the operator's details. */
    address: v.nullable(v.string()),
    companyNumber: v.nullable(v.string()),
    phone: v.nullable(v.string()),
    email: v.nullable(v.string()),
    supportEmail: v.string(),
  }),
  /** Prize-competition entries carry no VAT: the receipt says so. */
  vatNote: v.string(),
});
export type ReceiptView = v.InferOutput<typeof ReceiptViewSchema>;

export const RECEIPT_VAT_NOTE = 'No VAT is charged on competition entries.';
