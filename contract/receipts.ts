import * as v from 'valibot';
import { OrderViewSchema } from './checkout';

/** A required text field, trimmed, with its messages ('X is required', 'X must be at most N characters'). */
export const trimmed = (field: string, max: number) =>
  v.pipe(
    v.string(`${field} is required`),
    v.trim(),
    v.nonEmpty(`${field} is required`),
    v.maxLength(max, `${field} must be at most ${max} characters`),
  );

/**
 * PUT /api/admin/settings/operator: who runs the site, as printed on every receipt. The address
 * keeps its line breaks.
 */
export const OperatorSettingsSchema = v.object({
  operatorName: trimmed('Operator name', 200),
  operatorAddress: trimmed('Operator address', 500),
});
export type OperatorSettings = v.InferOutput<typeof OperatorSettingsSchema>;

/** GET /api/admin/settings/operator: null until the admin has set them. */
export type OperatorSettingsView = { operatorName: string | null; operatorAddress: string | null };

/** GET /api/orders/:id/receipt: a paid order, with the seller as the site settings name it. */
export const ReceiptViewSchema = v.object({
  order: OrderViewSchema,
  seller: v.object({
    name: v.string(),
    /** null until the admin sets the operator's address. */
    address: v.nullable(v.string()),
    supportEmail: v.string(),
  }),
  /** Prize-competition entries carry no VAT: the receipt says so. */
  vatNote: v.string(),
});
export type ReceiptView = v.InferOutput<typeof ReceiptViewSchema>;

export const RECEIPT_VAT_NOTE = 'No VAT is charged on competition entries.';
