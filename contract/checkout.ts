import * as v from 'valibot';
import { CardFactsSchema } from './cards';
import { COMPETITION_STATUSES } from './competitions';
import { InstantWinPrizeSchema } from './instantWins';
import { CREDIT_MINIMUM_SPEND_PENCE } from './money';

export { CREDIT_MINIMUM_MESSAGE, CREDIT_MINIMUM_SPEND_PENCE } from './money';

// Checkout, payments, orders and My Entries (docs/product.md#checkout, docs/product.md#orders,
// docs/product.md#admin-orders). Money is pounds here, as everywhere in the API; ISO 8601 timestamps.

/** The smallest card charge Stripe accepts in GBP; the sandbox behaves the same. */
export const MIN_CARD_CHARGE_PENCE = 30;

/**
 * The site credit an order uses (integer pence), for the cart's summary and the server alike:
 * none below a £5.00 cart, otherwise the smaller of the credit and the total (spec section 4), but
 * never leaving the card less than its 30p minimum: then the credit is trimmed so the card pays
 * 30p and the rest of the credit stays in the account.
 */
export function creditToApply(subtotalPence: number, creditPence: number, wanted: boolean): number {
  if (!wanted || subtotalPence < CREDIT_MINIMUM_SPEND_PENCE) return 0;
  const credit = Math.min(Math.max(0, creditPence), subtotalPence);
  const card = subtotalPence - credit;
  return card > 0 && card < MIN_CARD_CHARGE_PENCE
    ? Math.max(0, subtotalPence - MIN_CARD_CHARGE_PENCE)
    : credit;
}
export const CARD_MINIMUM_MESSAGE = 'Card payments start at £0.30: add a ticket or pay with site credit';

/**
 * Whether the card part of a payment is under the card minimum, so the payment cannot start: the
 * cart page shows CARD_MINIMUM_MESSAGE before checkout, the server answers it with a 400. Nothing
 * to charge (credit pays it all) is fine.
 */
export const belowCardMinimum = (cardPence: number): boolean =>
  cardPence > 0 && cardPence < MIN_CARD_CHARGE_PENCE;

export const EMPTY_CART_MESSAGE = 'Your cart is empty. Please add items to your cart before checking out.';
export const SANDBOX_TEST_MODE_LABEL = 'Test mode: no real payment is taken';

/** 12 -> 'ORD-0000000012' (docs/product.md#orders). */
export const formatOrderNumber = (id: number): string => `ORD-${String(id).padStart(10, '0')}`;

/** The order id in an order number ('ORD-0000001623' → 1623), or null for anything else. */
export function parseOrderNumber(ref: string): number | null {
  const match = /^ORD-(\d{10})$/.exec(ref.trim());
  const id = match ? Number(match[1]) : 0;
  return id > 0 ? id : null;
}

export const PAYMENT_PROVIDERS = ['stripe', 'sandbox', 'credit'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];
export const ORDER_STATUSES = ['pending', 'completed', 'failed', 'cancelled'] as const;

/**
 * POST /api/create-payment-intent. `version` is the client's checkout protocol version (the spec's
 * client sends 5); it is accepted and not otherwise used. `forceNew` always starts a new order;
 * without it an open order made from exactly the same cart is reused.
 */
export const CreatePaymentIntentSchema = v.object({
  version: v.optional(
    v.pipe(v.number('version must be a whole number'), v.integer('version must be a whole number')),
  ),
  forceNew: v.optional(v.boolean('forceNew must be true or false'), false),
  useCredit: v.optional(v.boolean('useCredit must be true or false'), false),
});
export type CreatePaymentIntentInput = v.InferOutput<typeof CreatePaymentIntentSchema>;

export const PaymentIntentResponseSchema = v.object({
  /** For Stripe.js / the sandbox form; null when no card payment is needed (paid by credit). */
  clientSecret: v.nullable(v.string()),
  orderId: v.number(),
  orderNumber: v.string(),
  /** Pounds to pay by card (subtotal minus credit). */
  amount: v.number(),
  subtotal: v.number(),
  creditApplied: v.number(),
  currency: v.literal('gbp'),
  provider: v.picklist(PAYMENT_PROVIDERS),
  /** Stripe's publishable key; null for the sandbox and credit-only orders. */
  publishableKey: v.nullable(v.string()),
  /** 'completed' when credit paid the whole order, else 'pending' until the card payment. */
  status: v.picklist(['pending', 'completed']),
  /** True when no real money is taken (sandbox, or Stripe with a test key). */
  testMode: v.boolean(),
  /**
   * The order buys into an instant-win competition, where credit cards are refused (DCMS code):
   * the card form says 'Debit cards only' before any card is tried.
   */
  debitCardsOnly: v.boolean(),
});
export type PaymentIntentResponse = v.InferOutput<typeof PaymentIntentResponseSchema>;

/** The Luhn checksum every real card number passes (catches typing mistakes). */
export function passesLuhn(cardNumber: string): boolean {
  let sum = 0;
  for (let i = 0; i < cardNumber.length; i++) {
    let d = Number(cardNumber[cardNumber.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

const digits = (message: string) =>
  v.pipe(
    v.union([v.string(message), v.number(message)], message),
    v.transform((x) => String(x).replace(/[\s-]/g, '')),
    v.regex(/^\d+$/, message),
  );

/** POST /api/payments/sandbox/confirm: the sandbox's card form. */
export const SandboxConfirmSchema = v.object({
  clientSecret: v.pipe(
    v.string('clientSecret is required'),
    v.nonEmpty('clientSecret is required'),
    v.maxLength(200, 'clientSecret is invalid'),
  ),
  cardNumber: v.pipe(
    digits('Your card number is incomplete.'),
    v.minLength(12, 'Your card number is incomplete.'),
    v.maxLength(19, 'Your card number is invalid.'),
    v.check(passesLuhn, 'Your card number is invalid.'),
  ),
  expMonth: v.pipe(
    digits("Your card's expiration month is invalid."),
    v.transform(Number),
    v.minValue(1, "Your card's expiration month is invalid."),
    v.maxValue(12, "Your card's expiration month is invalid."),
  ),
  expYear: v.pipe(
    digits("Your card's expiration year is invalid."),
    v.check((s) => s.length === 2 || s.length === 4, "Your card's expiration year is invalid."),
    // Two digits mean 20xx, as printed on cards.
    v.transform((s) => (s.length === 2 ? 2000 + Number(s) : Number(s))),
  ),
  cvc: v.pipe(
    v.string("Your card's security code is incomplete."),
    v.trim(),
    v.regex(/^\d{3,4}$/, "Your card's security code is incomplete."),
  ),
});
export type SandboxConfirmInput = v.InferOutput<typeof SandboxConfirmSchema>;

export const SandboxConfirmResultSchema = v.object({
  status: v.literal('succeeded'),
  orderId: v.number(),
  message: v.string(),
});
export type SandboxConfirmResult = v.InferOutput<typeof SandboxConfirmResultSchema>;

/** PATCH /api/orders/:id: the only change a customer may ask for, and only once paid. */
export const UpdateOrderSchema = v.object({
  status: v.literal('completed', 'Only status "completed" can be requested'),
});

export const OrderIdSchema = v.object({
  id: v.pipe(
    v.string(),
    v.regex(/^[1-9]\d{0,9}$/, 'Order id must be a positive whole number'),
    v.transform(Number),
  ),
});

export const OrderItemViewSchema = v.object({
  id: v.number(),
  competitionId: v.number(),
  title: v.string(),
  ticketPrice: v.number(),
  quantity: v.number(),
  /** The ticket numbers of this line (for a Lucky Dip, the numbers it was given). */
  selectedNumbers: v.array(v.number()),
  numbers: v.array(v.number()),
  /** What the line cost (pounds): with a bundle, less than quantity × ticketPrice. */
  lineTotal: v.number(),
  /** Pounds the line's bundles saved against single tickets (0: none). */
  saved: v.optional(v.number()),
  /** What each ticket cost (pounds), in the order of `numbers`. */
  ticketCosts: v.optional(v.array(v.number())),
  /** When the competition closes for its draw (its end date); null if it no longer exists. */
  drawDate: v.nullable(v.string()),
});
export type OrderItemView = v.InferOutput<typeof OrderItemViewSchema>;

export const OrderViewSchema = v.object({
  id: v.number(),
  orderNumber: v.string(),
  userId: v.nullable(v.number()),
  createdAt: v.string(),
  paidAt: v.nullable(v.string()),
  status: v.picklist(ORDER_STATUSES),
  /** Sum of the items, before credit. */
  subtotal: v.number(),
  creditApplied: v.number(),
  /** What was (or is to be) paid by card: subtotal minus credit. */
  total: v.number(),
  currency: v.string(),
  paymentProvider: v.nullable(v.string()),
  /**
   * How it was paid: the card as `cardLabel` names it ('Visa Debit ••5556'; 'Card' before one is
   * known), 'Site Credit', both joined with ' + ', or 'Free postal entry'.
   */
  paymentMethod: v.string(),
  /** The card that paid the order, as the gateway reported it; null when no card paid it. */
  card: v.nullable(CardFactsSchema),
  /** A message for the customer (replacement numbers, refund, last card error). */
  notice: v.nullable(v.string()),
  refund: v.nullable(
    v.object({
      amount: v.number(),
      reason: v.string(),
      /** null while the refund is still being sent to the payment provider. */
      refundedAt: v.nullable(v.string()),
    }),
  ),
  items: v.array(OrderItemViewSchema),
  /** The instant wins this order won ('You won instantly!'); absent where not looked up. */
  instantWins: v.optional(v.array(InstantWinPrizeSchema)),
});
export type OrderView = v.InferOutput<typeof OrderViewSchema>;

/** The admin's view of an order (docs/product.md#admin-orders) as sent with `admin:order`. */
export const AdminOrderViewSchema = v.object({
  ...OrderViewSchema.entries,
  paymentIntentId: v.nullable(v.string()),
  user: v.nullable(
    v.object({
      id: v.number(),
      username: v.string(),
      email: v.string(),
      firstName: v.nullable(v.string()),
      lastName: v.nullable(v.string()),
    }),
  ),
  /** A free postal entry's order: the postcard's name and e-mail (null for any other order). */
  postalEntrant: v.nullable(v.object({ name: v.string(), email: v.string() })),
});
export type AdminOrderView = v.InferOutput<typeof AdminOrderViewSchema>;

export const ORDER_CHANGES = ['created', 'paid', 'failed', 'cancelled', 'refunded'] as const;
export type OrderChange = (typeof ORDER_CHANGES)[number];

export const AdminOrderEventSchema = v.object({
  order: AdminOrderViewSchema,
  /** Extension of the realtime contract: what just happened to the order. */
  change: v.picklist(ORDER_CHANGES),
});
export type AdminOrderEvent = v.InferOutput<typeof AdminOrderEventSchema>;

export const AdminStatsSchema = v.object({
  userCount: v.number(),
  competitionCount: v.number(),
  orderCount: v.number(),
  /** Captured payments the reconciler settled after a crash or a lost webhook (docs/architecture.md). */
  reconciledPaymentCount: v.number(),
});
export type AdminStats = v.InferOutput<typeof AdminStatsSchema>;

/** GET /api/user-entries (docs/product.md#orders, My Entries). */
export const UserEntryViewSchema = v.object({
  id: v.number(),
  userId: v.number(),
  competitionId: v.number(),
  orderId: v.number(),
  ticketNumbers: v.array(v.number()),
  purchasedAt: v.string(),
  /** What these tickets cost on the order (pounds): bundles make it less than count × ticketPrice. */
  paid: v.optional(v.number()),
  competition: v.object({
    id: v.number(),
    image: v.nullable(v.string()),
    title: v.string(),
    description: v.string(),
    ticketPrice: v.number(),
    /** Closing time: the draw time of a live draw, the latest draw time of an auto-win one. */
    endDate: v.string(),
    autoWin: v.boolean(),
    status: v.picklist(COMPETITION_STATUSES),
    /** The result once drawn (the winner's name stays on the competition page). */
    draw: v.nullable(
      v.object({
        winningNumber: v.number(),
        drawnAt: v.string(),
        /** Every main prize drawn, 1st first (docs/draws.md "Several prizes"). */
        prizes: v.optional(
          v.array(v.object({ position: v.number(), title: v.string(), winningNumber: v.number() })),
        ),
      }),
    ),
  }),
  /** The instant prizes this purchase's numbers won ('You won'), lowest number first. */
  instantWins: v.optional(v.array(InstantWinPrizeSchema)),
});
export type UserEntryView = v.InferOutput<typeof UserEntryViewSchema>;

/** The main prizes these numbers won, 1st first (a draw of one prize: its winning number). */
export function mainPrizesWon(
  ticketNumbers: readonly number[],
  draw: NonNullable<UserEntryView['competition']['draw']>,
): Array<{ position: number; title: string; winningNumber: number }> {
  const prizes = draw.prizes ?? [{ position: 1, title: '', winningNumber: draw.winningNumber }];
  return prizes.filter((p) => ticketNumbers.includes(p.winningNumber));
}

/** Where an entry stands (docs/product.md#orders, My Entries). */
export type EntryStatus = 'open' | 'drawing' | 'drawn' | 'won';

/**
 * open: still selling; drawing: closed, the draw to come; drawn: someone else won; won: one of
 * these numbers won. `nowMs` is the server's clock, so a countdown at zero reads 'drawing'.
 */
export function entryStatus(
  ticketNumbers: readonly number[],
  c: UserEntryView['competition'],
  nowMs: number,
): EntryStatus {
  if (c.draw) return mainPrizesWon(ticketNumbers, c.draw).length ? 'won' : 'drawn';
  return c.status === 'active' && Date.parse(c.endDate) > nowMs ? 'open' : 'drawing';
}

/** POST /api/generate-cashflows-signature (docs/product.md#checkout). amount is integer pence. */
export const CashflowsSignatureSchema = v.object({
  amount: v.pipe(
    v.number('amount must be a whole number of pence'),
    v.integer('amount must be a whole number of pence'),
    v.minValue(1, 'amount must be at least 1 penny'),
    v.maxValue(100_000_000, 'amount is too large'),
  ),
  orderRef: v.pipe(
    v.string('orderRef is required'),
    v.regex(
      /^ORDER-[A-Za-z0-9-]{1,60}$/,
      'orderRef must start with ORDER- followed by letters, digits or dashes',
    ),
  ),
  transactionUnique: v.pipe(
    v.string('transactionUnique is required'),
    v.regex(
      /^TXN-[A-Za-z0-9-]{1,60}$/,
      'transactionUnique must start with TXN- followed by letters, digits or dashes',
    ),
  ),
});

/**
 * POST /api/payments/stripe/confirm: the Payment Element's ConfirmationToken (created by Stripe.js
 * in the browser); the server reads the card's funding and confirms the payment itself.
 */
export const StripeConfirmSchema = v.object({
  orderId: v.pipe(v.number('Order id is required'), v.integer(), v.minValue(1, 'Order id is required')),
  confirmationTokenId: v.pipe(
    v.string('The card details are missing'),
    v.regex(/^ctoken_[A-Za-z0-9_]{1,200}$/, 'The card details are missing'),
  ),
});
export type StripeConfirmInput = v.InferOutput<typeof StripeConfirmSchema>;

/** requires_action: the browser completes it (3-D Secure) with stripe.handleNextAction(clientSecret). */
export const StripeConfirmResultSchema = v.object({
  status: v.picklist(['succeeded', 'processing', 'requires_action']),
  orderId: v.number(),
  clientSecret: v.nullable(v.string()),
});
export type StripeConfirmResult = v.InferOutput<typeof StripeConfirmResultSchema>;
