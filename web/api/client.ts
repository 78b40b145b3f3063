// Typed fetch client with the shop's conventions (docs/product.md#conventions): cookies,
// no-cache, 15 s timeout for queries and 30 s for mutations, and the spec's error texts.

import * as v from 'valibot';
import { PLATFORM_ROUTES } from '../../contract/apiPlatform';
import type { OutputOf } from '../../contract/apiRoute';
import { ApiErrorSchema, ERROR_CODES, type ErrorCode } from '../../contract/errors';
import { selfExcludedMessage } from '../../contract/protection';

export const QUERY_TIMEOUT_MS = 15_000;
export const MUTATION_TIMEOUT_MS = 30_000;
export const NETWORK_ERROR_MESSAGE = 'Failed to fetch data. Please check your connection and try again.';

const KNOWN_CODES: ReadonlySet<string> = new Set(Object.values(ERROR_CODES));

/**
 * An HTTP failure: message is '{status}: {body text}' (spec), serverMessage the API's own message.
 * A UI decides by `code` and `details`, never by the text. A body that is not the API's error
 * shape, or a code this client does not know, counts as 'internal_error'.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly serverMessage: string | undefined,
    readonly code: ErrorCode = ERROR_CODES.internal,
    readonly details: Readonly<Record<string, unknown>> | undefined = undefined,
  ) {
    super(message);
  }
}

const codeListeners = new Map<ErrorCode, Set<(err: ApiError) => void>>();

/**
 * Calls `listener` whenever any request fails with `code`, besides the caller's own handling: a
 * refusal that several screens can cause (date_of_birth_required) opens one prompt for all.
 */
export function onApiErrorCode(code: ErrorCode, listener: (err: ApiError) => void): () => void {
  const set = codeListeners.get(code) ?? new Set();
  codeListeners.set(code, set);
  set.add(listener);
  return () => set.delete(listener);
}

async function toApiError(res: Response): Promise<ApiError> {
  let text: string;
  try {
    text = await res.text();
  } catch {
    return new ApiError(res.status, `${res.status}: Could not process response`, undefined);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (a proxy's error page): no code, no server message.
  }
  const serverMessage =
    typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string'
      ? (body as { message: string }).message
      : undefined;
  const parsed = v.safeParse(ApiErrorSchema, body);
  if (!parsed.success) return new ApiError(res.status, `${res.status}: ${text}`, serverMessage);
  const { code, details } = parsed.output;
  return new ApiError(
    res.status,
    `${res.status}: ${text}`,
    serverMessage,
    KNOWN_CODES.has(code) ? (code as ErrorCode) : ERROR_CODES.internal,
    details,
  );
}

/**
 * The error's details when they have the shape a schema describes (each code documents its
 * details in contract/errors.ts); undefined for any other error or shape.
 */
export function errorDetails<S extends v.GenericSchema>(
  err: unknown,
  schema: S,
): v.InferOutput<S> | undefined {
  if (!(err instanceof ApiError) || !err.details) return undefined;
  const parsed = v.safeParse(schema, err.details);
  return parsed.success ? parsed.output : undefined;
}

const TakenSchema = v.object({ taken: v.array(v.number()) });

/** number_taken's details: the chosen numbers someone else holds or bought; undefined for any other error. */
export const takenNumbersOf = (err: unknown): number[] | undefined =>
  err instanceof ApiError && err.code === ERROR_CODES.numberTaken
    ? errorDetails(err, TakenSchema)?.taken
    : undefined;

const OnBreakSchema = v.object({ selfExcludedUntil: v.string() });

/**
 * self_excluded's message for the customer, from its details (when the break ends), e.g. "You're
 * taking a break until 28 May 2031. You can't enter until then."; undefined for any other error.
 */
export const selfExcludedNoticeOf = (err: unknown): string | undefined => {
  if (!(err instanceof ApiError) || err.code !== ERROR_CODES.selfExcluded) return undefined;
  const until = errorDetails(err, OnBreakSchema)?.selfExcludedUntil;
  return until ? selfExcludedMessage(until) : err.serverMessage;
};

/** details.fields of a validation failure or a refused field: field path -> message. */
export const FieldErrorsSchema = v.object({ fields: v.record(v.string(), v.string()) });

/** One request: the parsed body and the answer's headers (most callers want only the body). */
async function exchange<T>(
  path: string,
  init: RequestInit,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<{ body: T; headers: Headers }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('timeout', 'TimeoutError')), timeoutMs);
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort);
  try {
    const res = await fetch(path, {
      ...init,
      credentials: 'include',
      cache: 'no-store',
      headers: { Accept: 'application/json', 'Cache-Control': 'no-cache', ...init.headers },
      signal: controller.signal,
    });
    if (!res.ok) {
      const err = await toApiError(res);
      for (const listener of codeListeners.get(err.code) ?? []) listener(err);
      throw err;
    }
    return { body: (res.status === 204 ? undefined : await res.json()) as T, headers: res.headers };
  } catch (err) {
    if (err instanceof ApiError) throw err;
    if (controller.signal.aborted && !signal?.aborted) throw new Error(`Request timeout for ${path}`);
    if (signal?.aborted) throw err;
    throw new Error(NETWORK_ERROR_MESSAGE);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

async function request<T>(path: string, init: RequestInit, timeoutMs: number, signal?: AbortSignal) {
  return (await exchange<T>(path, init, timeoutMs, signal)).body;
}

export const apiGet = <T>(path: string, signal?: AbortSignal) =>
  request<T>(path, { method: 'GET' }, QUERY_TIMEOUT_MS, signal);

/** A GET whose answer's headers matter too (the cart's revision travels in one). */
export const apiGetWithHeaders = <T>(path: string, signal?: AbortSignal) =>
  exchange<T>(path, { method: 'GET' }, QUERY_TIMEOUT_MS, signal);

/** The message to show a person: the server's own when it sent one (a break's, worded here). */
export const messageOf = (err: unknown, fallback: string) =>
  selfExcludedNoticeOf(err) ??
  (err instanceof ApiError ? (err.serverMessage ?? fallback) : err instanceof Error ? err.message : fallback);

// CSRF: every non-GET request carries the session's token in X-CSRF-Token (spec section 7).
let csrfToken: string | undefined;
let csrfRequest: Promise<string | undefined> | undefined;

/** Fetches (once) and caches the token; a failed fetch leaves it unset ('disabled' in the spec). */
export function ensureCsrfToken(force = false): Promise<string | undefined> {
  if (csrfToken && !force) return Promise.resolve(csrfToken);
  csrfRequest ??= apiGet<OutputOf<typeof PLATFORM_ROUTES.csrfToken>>(PLATFORM_ROUTES.csrfToken.path)
    .then((r) => {
      csrfToken = r.csrfToken;
      return csrfToken;
    })
    .catch(() => undefined)
    .finally(() => {
      csrfRequest = undefined;
    });
  return csrfRequest;
}

/** Forget the token (the session changed: sign-in or sign-out). */
export const resetCsrfToken = () => {
  csrfToken = undefined;
};

/** Sends once; when the server says the CSRF token is stale (session renewed), renews it and sends again. */
async function withCsrfRetry<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (err) {
    if (!(err instanceof ApiError && err.code === ERROR_CODES.csrf)) throw err;
    await ensureCsrfToken(true);
    return send();
  }
}

/** A JSON mutation with the CSRF header; a stale token is renewed and the request sent once more. */
export async function apiSend<T>(
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<T> {
  const send = async () => {
    const token = await ensureCsrfToken();
    return request<T>(
      path,
      {
        method,
        headers: {
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...(token ? { 'X-CSRF-Token': token } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      },
      MUTATION_TIMEOUT_MS,
    );
  };
  return withCsrfRetry(send);
}

/**
 * A multipart upload (field `image`, as every upload route reads) with the CSRF header. The body
 * is FormData, so the browser sets the multipart boundary itself.
 */
export async function apiUpload<T>(path: string, file: File, field = 'image'): Promise<T> {
  const send = async () => {
    const token = await ensureCsrfToken();
    const form = new FormData();
    form.append(field, file);
    return request<T>(
      path,
      { method: 'POST', headers: token ? { 'X-CSRF-Token': token } : {}, body: form },
      MUTATION_TIMEOUT_MS,
    );
  };
  return withCsrfRetry(send);
}

/** Downloads a file answer (CSV export) and saves it under the server's Content-Disposition name. */
export async function apiDownload(path: string, fallbackName: string): Promise<void> {
  const res = await fetch(path, { credentials: 'include', cache: 'no-store' });
  if (!res.ok) throw await toApiError(res);
  const disposition = res.headers.get('Content-Disposition') ?? '';
  const name = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? fallbackName;
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  // Give the browser a moment to start the download before the URL goes.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
