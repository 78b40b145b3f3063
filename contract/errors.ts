import * as v from 'valibot';

/** Every error response body (architecture.md "Errors"). */
export const ApiErrorSchema = v.object({
  message: v.string(),
  code: v.string(),
  details: v.optional(v.record(v.string(), v.unknown())),
});
export type ApiErrorBody = v.InferOutput<typeof ApiErrorSchema>;

export const ERROR_CODES = {
  badRequest: 'bad_request',
  validation: 'validation_failed',
  unauthenticated: 'unauthenticated',
  forbidden: 'forbidden',
  csrf: 'csrf_invalid',
  notFound: 'not_found',
  /** Ticket lookup: the number is neither sold nor held now; details.history, when it has a past. */
  ticketNotFound: 'ticket_not_found',
  methodNotAllowed: 'method_not_allowed',
  conflict: 'conflict',
  tooLarge: 'payload_too_large',
  unsupportedType: 'unsupported_media_type',
  rateLimited: 'rate_limited',
  paymentFailed: 'payment_failed',
  paymentUnavailable: 'payment_unavailable',
  internal: 'internal_error',
  /** The process is shutting down (a restart): nothing was done; retry after Retry-After seconds. */
  unavailable: 'service_unavailable',
  // Domain refusals the client acts on; a UI decides by these, never by the message text.
  /** Chosen numbers are held or sold by someone else; details.taken lists them. */
  numberTaken: 'number_taken',
  /** A Lucky Dip asked for more numbers than are free. */
  notEnoughTickets: 'not_enough_tickets',
  /** The per-person ticket cap; details.limit and details.current. */
  overCap: 'over_cap',
  /** The competition takes no new entries (ended, drawn or not active). */
  closed: 'closed',
  /** The skill question has not been answered correctly in this session. */
  skillRequired: 'skill_required',
  /** The card would be charged less than its £0.30 minimum (contract/checkout.ts belowCardMinimum). */
  cardMinimum: 'card_minimum',
  /** ADMIN_REQUIRE_2FA: this admin must turn on two-factor sign-in before using the back office. */
  twoFactorSetupRequired: 'two_factor_setup_required',
} as const;

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];
