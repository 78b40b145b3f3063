import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { type ApiErrorBody, ERROR_CODES } from '../../contract/errors';
import { HttpError } from '../platform/errors';

// Statuses raised by Koa and its body parser (http-errors) that map to our codes.
const CODE_BY_STATUS: Record<number, string> = {
  400: ERROR_CODES.badRequest,
  401: ERROR_CODES.unauthenticated,
  403: ERROR_CODES.forbidden,
  404: ERROR_CODES.notFound,
  405: ERROR_CODES.methodNotAllowed,
  409: ERROR_CODES.conflict,
  413: ERROR_CODES.tooLarge,
  415: ERROR_CODES.unsupportedType,
  429: ERROR_CODES.rateLimited,
};

interface ExposableError {
  status?: number;
  statusCode?: number;
  expose?: boolean;
  message?: string;
}

/** Turns every thrown error into the JSON error shape; no stack trace ever reaches the client. */
export function errorHandler(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      let status = 500;
      let body: ApiErrorBody = {
        message: 'Something went wrong. Please try again.',
        code: ERROR_CODES.internal,
      };
      if (err instanceof HttpError) {
        status = err.status;
        body = { message: err.message, code: err.code, ...(err.details ? { details: err.details } : {}) };
        if (err.headers) ctx.set(err.headers);
      } else {
        const e = err as ExposableError;
        const s = e.status ?? e.statusCode;
        // Client errors raised by Koa/koa-body (bad JSON, too large) carry expose=true and a safe message.
        if (s && s >= 400 && s < 500 && e.expose) {
          status = s;
          body = { message: e.message ?? 'Bad request', code: CODE_BY_STATUS[s] ?? ERROR_CODES.badRequest };
        }
      }
      if (status >= 500) logger.error({ err, method: ctx.method, path: ctx.path }, 'request failed');
      ctx.status = status;
      ctx.body = body;
    }
  };
}
