import * as v from 'valibot';
import type { BundleOffer } from './bundles';
import { MAX_TICKETS_PER_PURCHASE } from './competitions';

export const DEFAULT_SKILL_QUESTION = {
  question: 'How many days in a typical year?',
  options: ['365', '364', '366', '360'],
  answer: '365',
} as const;

/** A hold without a correct answer to the competition's skill question (403 skill_required). */
export const SKILL_REQUIRED_MESSAGE = 'Please answer the skill question first';

export interface SkillQuestion {
  question: string;
  options: string[];
}

export const SkillAnswerSchema = v.object({
  answer: v.pipe(
    v.union([v.string(), v.number()], 'Please choose an answer'),
    v.transform((a) => String(a).trim()),
    v.nonEmpty('Please choose an answer'),
  ),
});

const quantity = v.pipe(
  v.number('Quantity must be a whole number from 1 to 10'),
  v.integer('Quantity must be a whole number from 1 to 10'),
  v.minValue(1, 'Quantity must be a whole number from 1 to 10'),
  v.maxValue(MAX_TICKETS_PER_PURCHASE, 'Quantity must be a whole number from 1 to 10'),
);

/** POST /api/cart. selectedNumbers empty or absent = Lucky Dip. */
export const AddToCartSchema = v.pipe(
  v.object({
    competitionId: v.pipe(
      v.number('Competition id must be a positive whole number'),
      v.integer('Competition id must be a positive whole number'),
      v.minValue(1, 'Competition id must be a positive whole number'),
    ),
    quantity,
    selectedNumbers: v.optional(
      v.nullable(
        v.pipe(
          v.array(
            v.pipe(
              v.number('Ticket numbers must be whole numbers'),
              v.integer('Ticket numbers must be whole numbers'),
              v.minValue(1, 'Ticket numbers start at 1'),
            ),
            'selectedNumbers must be a list of ticket numbers',
          ),
          v.maxLength(MAX_TICKETS_PER_PURCHASE, 'You can choose at most 10 numbers'),
          v.check((list) => new Set(list).size === list.length, 'Each number can only be chosen once'),
        ),
      ),
    ),
  }),
  v.check(
    (body) => !body.selectedNumbers?.length || body.selectedNumbers.length === body.quantity,
    'The number of selected numbers must equal the quantity',
  ),
);
export type AddToCartInput = v.InferOutput<typeof AddToCartSchema>;

export const UpdateCartItemSchema = v.object({ quantity });

export const CartItemIdSchema = v.object({
  id: v.pipe(
    v.string(),
    v.regex(/^[1-9]\d{0,15}$/, 'Cart item id must be a positive whole number'),
    v.transform(Number),
  ),
});

export interface CartItemView {
  id: number;
  sessionId: string;
  competitionId: number;
  quantity: number;
  /** The numbers the customer chose; empty for a Lucky Dip. */
  selectedNumbers: number[];
  /** Every number this item holds now (Lucky Dip included). */
  heldNumbers: number[];
  reservedAt: string;
  expiresAt: string;
  /** 'Keep my numbers' has extended this hold: it cannot be kept again. */
  kept: boolean;
  createdAt: string;
  competition: {
    id: number;
    title: string;
    image: string | null;
    ticketPrice: number;
    /** Multi-buy offers in pounds: the cart prices each competition's tickets together with them. */
    bundles?: BundleOffer[];
    endDate: string;
  };
}

/**
 * What every change to a cart answers with: the whole cart after it, the cart's revision (the
 * browser keeps the highest it has seen, so an older cart never replaces a newer one), and the
 * competition versions the change produced (competition id -> version), by which the browser
 * recognises the broadcasts of its own change.
 */
export interface CartChangeView {
  cart: CartItemView[];
  cartRevision: number;
  versions: Record<string, number>;
}

/** POST /api/cart and PATCH /api/cart/:id: the item (as before) plus the change. */
export type CartItemChangeView = CartItemView & CartChangeView;

/** GET /api/cart sends the cart's revision in this header (the body stays a plain array). */
export const CART_REVISION_HEADER = 'X-Cart-Revision';
