import type * as v from 'valibot';

// The API's route table is built from these entries (contract/apiRoutes.ts lists them all): the
// server registers each with api/http/serve.ts and the client calls each with web/api/call.ts,
// so a path, an input or an answer changed on one side fails the other's typecheck.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * json: a JSON answer the client reads through `call`. The others are listed so the table is
 * complete, but the client reaches them another way: `upload` (multipart body), `file` (a download
 * such as a CSV), `text` (for machines other than the browser: robots.txt, metrics, the test
 * beacon's drand JSON), `webhook` (a provider's signed call, never the browser).
 */
export type RouteKind = 'json' | 'upload' | 'file' | 'text' | 'webhook';

type Schema = v.GenericSchema;

declare const OUTPUT: unique symbol;

export interface ApiRoute<
  M extends HttpMethod = HttpMethod,
  P extends string = string,
  Params extends Schema | undefined = Schema | undefined,
  Query extends Schema | undefined = Schema | undefined,
  Body extends Schema | undefined = Schema | undefined,
  K extends RouteKind = RouteKind,
  O = unknown,
> {
  readonly method: M;
  readonly path: P;
  /** Path parameters; without a schema each `:name` arrives as a string. */
  readonly params?: Params;
  readonly query?: Query;
  readonly body?: Body;
  readonly kind: K;
  /** Why a route is not plain JSON, or anything else a caller must know. */
  readonly note?: string;
  /** Type only: the answer's shape (never set at run time). */
  readonly [OUTPUT]?: O;
}

/**
 * One entry: `route<Answer>()({ method, path, params?, query?, body?, kind?, note? })`. The answer
 * type is given explicitly, the rest is inferred from the literal (kind defaults to 'json').
 */
export function route<O = void>() {
  return <
    const M extends HttpMethod,
    const P extends string,
    Params extends Schema | undefined = undefined,
    Query extends Schema | undefined = undefined,
    Body extends Schema | undefined = undefined,
    const K extends RouteKind = 'json',
  >(def: {
    method: M;
    path: P;
    params?: Params;
    query?: Query;
    body?: Body;
    kind?: K;
    note?: string;
  }): ApiRoute<M, P, Params, Query, Body, K, O> =>
    ({ ...def, kind: def.kind ?? 'json' }) as ApiRoute<M, P, Params, Query, Body, K, O>;
}

/** The answer a route declares. */
export type OutputOf<R> =
  R extends ApiRoute<HttpMethod, string, infer _P, infer _Q, infer _B, RouteKind, infer O> ? O : never;

/** The `:name` segments of a path. */
export type PathParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

type SchemaOf<R, K extends 'params' | 'query' | 'body'> = R extends { readonly [key in K]?: infer S }
  ? Exclude<S, undefined>
  : never;

type Parsed<S, Fallback> = [S] extends [never] ? Fallback : S extends Schema ? v.InferOutput<S> : Fallback;
type Sent<S, Fallback> = [S] extends [never] ? Fallback : S extends Schema ? v.InferInput<S> : Fallback;

/** What a handler receives: each part parsed with its schema (absent parts are undefined). */
export interface ServerInput<R extends ApiRoute> {
  params: Parsed<SchemaOf<R, 'params'>, Record<PathParamNames<R['path']>, string>>;
  query: Parsed<SchemaOf<R, 'query'>, undefined>;
  body: Parsed<SchemaOf<R, 'body'>, undefined>;
}

// A part whose every field is optional (a list's filters) may be left out.
type Part<K extends string, T> = [T] extends [undefined]
  ? unknown
  : Record<never, never> extends T
    ? { [key in K]?: T }
    : { [key in K]: T };

/** What a caller sends: only the parts the route has. */
export type CallInput<R extends ApiRoute> = Part<
  'params',
  [PathParamNames<R['path']>] extends [never] ? undefined : Record<PathParamNames<R['path']>, string | number>
> &
  Part<'query', Sent<SchemaOf<R, 'query'>, undefined>> &
  Part<'body', Sent<SchemaOf<R, 'body'>, undefined>>;

/** The path with its parameters filled in and the query appended (undefined values left out). */
export function pathOf(
  r: Pick<ApiRoute, 'path'>,
  input?: { params?: Record<string, string | number>; query?: unknown },
): string {
  const params = input?.params ?? {};
  const path = r.path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${r.path} needs :${name}`);
    return encodeURIComponent(String(value));
  });
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries((input?.query ?? {}) as Record<string, unknown>)) {
    if (value !== undefined && value !== null) query.append(key, String(value));
  }
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}
