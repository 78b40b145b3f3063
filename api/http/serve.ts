import type { Router } from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { ApiRoute, OutputOf, ServerInput } from '../../contract/apiRoute';
import { parse } from './validate';

/** A JSON route answers what its entry declares; the others set ctx.body themselves. */
// biome-ignore lint/suspicious/noConfusingVoidType: a handler that sets ctx.body returns nothing
type Answer<R extends ApiRoute> = R['kind'] extends 'json' ? OutputOf<R> : void;

export type RouteHandler<R extends ApiRoute> = (
  input: ServerInput<R>,
  ctx: Context,
) => Answer<R> | Promise<Answer<R>>;

/**
 * Registers one route-table entry (contract/apiRoutes.ts): its method and path, then `guards`
 * (auth, limits: they run first, as before), then the handler with the params, query and body
 * parsed by the entry's schemas (a failure is the 400 of `parse`). A JSON route's return value is
 * the answer; a status or header the handler sets on ctx stays.
 */
export function serve<R extends ApiRoute>(
  router: Router,
  route: R,
  ...stack: [...guards: Middleware[], handler: RouteHandler<R>]
): void {
  const handler = stack.at(-1) as RouteHandler<R>;
  const guards = stack.slice(0, -1) as Middleware[];
  const endpoint: Middleware = async (ctx) => {
    const input = {
      params: route.params ? parse(route.params, ctx.params) : ctx.params,
      query: route.query ? parse(route.query, ctx.query) : undefined,
      body: route.body ? parse(route.body, ctx.request.body ?? {}) : undefined,
    } as ServerInput<R>;
    const answer = await handler(input, ctx);
    if (route.kind === 'json') ctx.body = answer;
  };
  const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
  router[method](route.path, ...guards, endpoint);
}
