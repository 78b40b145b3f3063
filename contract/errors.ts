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
  methodNotAllowed: 'method_not_allowed',
  conflict: 'conflict',
  tooLarge: 'payload_too_large',
  unsupportedType: 'unsupported_media_type',
  rateLimited: 'rate_limited',
  paymentFailed: 'payment_failed',
  paymentUnavailable: 'payment_unavailable',
  internal: 'internal_error',
} as const;
