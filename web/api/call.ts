// Calls the API through its route table (contract/apiRoutes.ts): the path, the input and the
// answer's type all come from the entry, so no page spells an /api path or guesses an answer.

import { type ApiRoute, type CallInput, type OutputOf, pathOf } from '../../contract/apiRoute';
import { apiGet, apiGetWithHeaders, apiSend } from './client';
import { type ApiData, useApiData } from './useApiData';

/** A route the browser calls with JSON (uploads, downloads and webhooks go other ways). */
export type JsonRoute = ApiRoute & { readonly kind: 'json' };

/** The input argument: optional when the route needs none. */
export type InputArgs<R extends ApiRoute> =
  Record<never, never> extends CallInput<R> ? [input?: CallInput<R>] : [input: CallInput<R>];

type Loose = { params?: Record<string, string | number>; query?: unknown; body?: unknown };

/** The path a call of `route` with `input` requests (the key of a server-rendered page's seed). */
export const routePath = <R extends ApiRoute>(route: R, ...[input]: InputArgs<R>): string =>
  pathOf(route, input as Loose | undefined);

/**
 * The first load's form: the entry imported as a type only (`import type`), its method and path
 * spelled here and checked against it, so its schemas stay out of the home page's bundle
 * (tests/unit/clientBuild.test.ts) while a renamed path or a changed answer still fails tsc.
 */
export type At<R extends ApiRoute> = Pick<R, 'method' | 'path'>;

/** One request: a GET with the query, any other method as a JSON mutation with the CSRF token. */
export function call<R extends JsonRoute>(route: R | At<R>, ...[input]: InputArgs<R>): Promise<OutputOf<R>> {
  const loose = input as Loose | undefined;
  const path = pathOf(route, loose);
  return route.method === 'GET'
    ? apiGet<OutputOf<R>>(path)
    : apiSend<OutputOf<R>>(route.method, path, loose?.body);
}

/** A GET whose answer's headers matter too (the cart's revision travels in one). */
export const callWithHeaders = <R extends JsonRoute & { method: 'GET' }>(
  route: R | At<R>,
  ...[input]: InputArgs<R>
) => apiGetWithHeaders<OutputOf<R>>(pathOf(route, input as Loose | undefined));

/**
 * useApiData for one GET route; `input` null = nothing to load yet (a route without input takes
 * `{}` or undefined).
 */
export function useRoute<R extends JsonRoute & { method: 'GET' }>(
  route: R | At<R>,
  input: CallInput<R> | null,
  options?: Parameters<typeof useApiData>[1],
): ApiData<OutputOf<R>> {
  return useApiData<OutputOf<R>>(input === null ? null : pathOf(route, input as Loose), options);
}
