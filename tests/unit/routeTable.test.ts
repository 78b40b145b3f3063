import { describe, expect, expectTypeOf, it } from 'vitest';
import type { RouteHandler } from '../../api/http/serve';
import type { AccountMessageView } from '../../contract/account';
import type { ACCOUNT_ROUTES } from '../../contract/apiAccounts';
import { ADMIN_ORDER_ROUTES } from '../../contract/apiAdminOrders';
import { AUTH_ROUTES } from '../../contract/apiAuth';
import type { CATALOGUE_ROUTES } from '../../contract/apiCatalogue';
import { ORDER_ROUTES } from '../../contract/apiOrders';
import { type CallInput, type OutputOf, pathOf } from '../../contract/apiRoute';
import { TICKET_ROUTES } from '../../contract/apiTickets';
import type { SignInView, TwoFactorChallenge } from '../../contract/auth';
import type { CartItemChangeView, CartItemView } from '../../contract/cart';
import type { OrderView } from '../../contract/checkout';
import type { PublicCompetition } from '../../contract/competitions';
import type { call, InputArgs } from '../../web/api/call';

// Renaming a route or changing its answer must fail the typecheck (npx tsc): these assertions pin
// a few entries' paths, inputs and answers on both sides.

describe('the route table, at the type level', () => {
  it('keeps the spec paths and methods as literal types', () => {
    expectTypeOf(AUTH_ROUTES.login.path).toEqualTypeOf<'/api/login'>();
    expectTypeOf(AUTH_ROUTES.login.method).toEqualTypeOf<'POST'>();
    expectTypeOf(TICKET_ROUTES.updateCartItem.path).toEqualTypeOf<'/api/cart/:id'>();
    expectTypeOf(ORDER_ROUTES.order.path).toEqualTypeOf<'/api/orders/:id'>();
  });

  it('declares each answer', () => {
    expectTypeOf<OutputOf<typeof AUTH_ROUTES.login>>().toEqualTypeOf<SignInView | TwoFactorChallenge>();
    expectTypeOf<OutputOf<typeof ACCOUNT_ROUTES.forgotPassword>>().toEqualTypeOf<AccountMessageView>();
    expectTypeOf<OutputOf<typeof TICKET_ROUTES.cart>>().toEqualTypeOf<CartItemView[]>();
    expectTypeOf<OutputOf<typeof TICKET_ROUTES.addToCart>>().toEqualTypeOf<CartItemChangeView>();
    expectTypeOf<OutputOf<typeof TICKET_ROUTES.keepCartItem>>().toEqualTypeOf<CartItemChangeView>();
    expectTypeOf<OutputOf<typeof CATALOGUE_ROUTES.competitions>>().toEqualTypeOf<PublicCompetition[]>();
    expectTypeOf<OutputOf<typeof ORDER_ROUTES.order>>().toEqualTypeOf<OrderView>();
  });

  it('makes the client send what the schema reads, and answers the declared type', () => {
    expectTypeOf<CallInput<typeof AUTH_ROUTES.login>>().toEqualTypeOf<{
      body: { username: string; password: string };
    }>();
    expectTypeOf<CallInput<typeof ORDER_ROUTES.order>>().toEqualTypeOf<{
      params: Record<'id', string | number>;
    }>();
    expectTypeOf<ReturnType<typeof call<typeof ORDER_ROUTES.order>>>().toEqualTypeOf<Promise<OrderView>>();
    // A route with a :id needs its input; one without any may leave it out.
    expectTypeOf<InputArgs<typeof ORDER_ROUTES.order>>().toEqualTypeOf<
      [input: { params: Record<'id', string | number> }]
    >();
    expectTypeOf<InputArgs<typeof AUTH_ROUTES.session>>().toEqualTypeOf<[input?: unknown]>();
  });

  it('makes the server answer the declared type', () => {
    type LoginHandler = RouteHandler<typeof AUTH_ROUTES.login>;
    expectTypeOf<ReturnType<LoginHandler>>().toEqualTypeOf<
      SignInView | TwoFactorChallenge | Promise<SignInView | TwoFactorChallenge>
    >();
    expectTypeOf<Parameters<LoginHandler>[0]['body']>().toEqualTypeOf<{
      username: string;
      password: string;
    }>();
    // @ts-expect-error: an answer of another shape does not fit the login route
    const wrong: LoginHandler = async () => ({ message: 'hello' });
    void wrong;
  });

  it('fills the path and the query', () => {
    expect(pathOf(ORDER_ROUTES.order, { params: { id: 'ORD 1' } })).toBe('/api/orders/ORD%201');
    expect(pathOf(ADMIN_ORDER_ROUTES.adminOrders, { query: { pageSize: 10, search: undefined } })).toBe(
      '/api/admin/orders?pageSize=10',
    );
    expect(() => pathOf(ORDER_ROUTES.order, {})).toThrow(':id');
  });
});
