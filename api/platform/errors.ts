import { ERROR_CODES, type ErrorCode } from '../../contract/errors';

/** An error whose message is safe to show to the client, with its HTTP status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, details?: Record<string, unknown>) =>
  new HttpError(400, ERROR_CODES.badRequest, message, details);
export const unauthenticated = (message = 'Please log in to continue.') =>
  new HttpError(401, ERROR_CODES.unauthenticated, message);
export const forbidden = (
  message = 'You are not allowed to do that.',
  code: ErrorCode = ERROR_CODES.forbidden,
) => new HttpError(403, code, message);
export const notFound = (message = 'Not found') => new HttpError(404, ERROR_CODES.notFound, message);
export const conflict = (
  message: string,
  details?: Record<string, unknown>,
  code: ErrorCode = ERROR_CODES.conflict,
) => new HttpError(409, code, message, details);

/** What a body-parser failure means to the client: too large (413) or not parseable (400). */
export function bodyParseError(err: unknown): HttpError {
  const status =
    (err as { status?: number; statusCode?: number }).status ?? (err as { statusCode?: number }).statusCode;
  if (status === 413) return new HttpError(413, ERROR_CODES.tooLarge, 'The request body is too large.');
  if (status === 415) return new HttpError(415, ERROR_CODES.unsupportedType, 'Unsupported content type.');
  return new HttpError(400, ERROR_CODES.badRequest, 'The request body could not be read: send valid JSON.');
}
