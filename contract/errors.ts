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
  /** The draw beacon could not be reached or its round did not verify; the draw is retried. */
  beaconUnavailable: 'beacon_unavailable',
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
  /** A number alert asked about a number that is free now: hold it instead (details.free). */
  numberFree: 'number_free',
  /** A scheduled launch: the competition opens at `details.startsAt`; nothing can be held before. */
  notOpenYet: 'not_open_yet',
  /** A queued launch: this visitor has no live admission while others wait (docs/draws.md#launch-queue). */
  queueRequired: 'queue_required',
  /** The competition takes no new entries (ended, drawn or not active). */
  closed: 'closed',
  /** 'Keep my numbers' asked again for a hold already kept once. */
  holdKept: 'hold_kept',
  /** The skill question has not been answered correctly in this session. */
  skillRequired: 'skill_required',
  /** 429: SKILL_MAX_ATTEMPTS wrong answers in 24 hours; details.retryAt says when the next is allowed. */
  skillLocked: 'skill_attempts_used',
  /** The question this visitor was shown is no longer in the pool (or none was shown): ask again. */
  skillQuestionChanged: 'skill_question_changed',
  /** The card would be charged less than its £0.30 minimum (contract/checkout.ts belowCardMinimum). */
  cardMinimum: 'card_minimum',
  /** ADMIN_REQUIRE_2FA: this admin must turn on two-factor sign-in before using the back office. */
  twoFactorSetupRequired: 'two_factor_setup_required',
  /** A signed-in account with no date of birth may not hold or pay: the UI asks for it. */
  dateOfBirthRequired: 'date_of_birth_required',
  /** A prize over the site's threshold cannot be marked delivered before the winner's age check. */
  ageVerificationRequired: 'age_verification_required',
  /** The checkout would pass the customer's monthly spend limit; details.limitPence, leftPence. */
  spendLimit: 'spend_limit',
  /** A credit card over CREDIT_CARD_MONTHLY_CAP_PENCE this month; details.capPence. */
  creditCardCap: 'credit_card_cap',
  /** A credit card for a cart with an instant-win competition (DCMS code): debit cards and credit only. */
  creditCardInstantWin: 'credit_card_instant_win',
  /** The account is taking a break (self-exclusion); details.selfExcludedUntil. */
  selfExcluded: 'self_excluded',
  /** A competition cannot become active before the promoter's details are set in Site Settings. */
  promoterDetailsMissing: 'promoter_details_missing',
  /** 410: a postal winner's claim link after the claim's deadline (the link lives as long as the window). */
  claimLinkExpired: 'claim_link_expired',
} as const;

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];
