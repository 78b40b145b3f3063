import type { IncomingMessage } from 'node:http';
import type { Router } from '@koa/router';
import type { Middleware } from 'koa';
import { ORDER_ROUTES as R } from '../../../contract/apiOrders';
import { ERROR_CODES } from '../../../contract/errors';
import { requireDateOfBirth, requireUser } from '../../http/auth';
import { serve } from '../../http/serve';
import { type PaymentGateway, SandboxGateway, StripeGateway } from '../../payments';
import { hostedPaymentForm } from '../../payments/cashflows';
import type { AppDeps } from '../../platform/context';
import { badRequest, HttpError, notFound } from '../../platform/errors';
import { ensureGuestId } from '../../platform/sessions';
import { confirmOrderPaid, createPaymentIntent } from '../checkout/checkout';
import { confirmSandboxPayment } from '../checkout/sandboxConfirm';
import { confirmStripePayment } from '../checkout/stripeConfirm';
import { listUserEntries, orderVisibleTo } from '../orders';
import { type CheckoutDeps, paymentDepsOf } from '../payment';
import { presentOrder } from '../presenter';
import { handleStripeEvent } from '../stripeWebhook';

/** The one route without CSRF: Stripe signs it instead, and it needs the unparsed body. */
export const STRIPE_WEBHOOK_PATH = R.stripeWebhook.path;
const WEBHOOK_BODY_LIMIT = 1024 * 1024;

async function readRawBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new HttpError(413, ERROR_CODES.tooLarge, 'The request body is too large.');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Checkout, the payment gateways, orders and My Entries. */
export function registerCheckoutRoutes(router: Router, app: AppDeps, gateway: PaymentGateway): void {
  const { db, config, logger } = app;
  const deps: CheckoutDeps = {
    ...paymentDepsOf(app, gateway),
    windowSeconds: config.payments.windowSeconds,
    creditCardCapPence: config.payments.creditCardMonthlyCapPence,
  };
  const signedIn = requireUser(db);

  // A gateway that is off answers 404 before the body is read.
  const onlyWith =
    (kind: typeof SandboxGateway | typeof StripeGateway, message: string): Middleware =>
    (_, next) => {
      if (!(gateway instanceof kind)) throw notFound(message);
      return next();
    };

  serve(router, R.createPaymentIntent, signedIn, requireDateOfBirth(db), async ({ body: input }, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    return await createPaymentIntent(deps, ctx.state.user!, ensureGuestId(ctx.session!), input);
  });

  const sandboxOn = onlyWith(SandboxGateway, 'The payment sandbox is not enabled on this server.');
  serve(router, R.confirmSandboxPayment, signedIn, sandboxOn, async ({ body: input }, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    return await confirmSandboxPayment(deps, gateway as SandboxGateway, ctx.state.user!, input);
  });

  const stripeOn = onlyWith(StripeGateway, 'Stripe is not configured on this server.');
  serve(router, R.confirmStripePayment, signedIn, stripeOn, async ({ body: input }, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const returnUrl = `${config.publicUrl}/confirmation/${input.orderId}`;
    return await confirmStripePayment(deps, gateway as StripeGateway, ctx.state.user!, input, returnUrl);
  });

  serve(router, R.stripeWebhook, async (_, ctx) => {
    if (!(gateway instanceof StripeGateway)) throw notFound('Stripe is not configured on this server.');
    if (!gateway.webhookSecret) {
      throw new HttpError(503, ERROR_CODES.paymentUnavailable, 'Stripe webhooks are not configured.');
    }
    const signature = ctx.get('stripe-signature');
    const raw = await readRawBody(ctx.req, WEBHOOK_BODY_LIMIT);
    if (!signature) throw badRequest('Missing Stripe-Signature header.');
    let event: ReturnType<StripeGateway['constructWebhookEvent']>;
    try {
      event = gateway.constructWebhookEvent(raw, signature);
    } catch (err) {
      logger.warn({ err: (err as Error).message }, 'Stripe webhook with a bad signature refused');
      throw badRequest('Invalid Stripe signature.');
    }
    ctx.body = await handleStripeEvent({ ...deps, gateway }, event);
  });

  serve(router, R.order, signedIn, async ({ params: { id } }, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    return presentOrder(await orderVisibleTo(db, id, ctx.state.user!));
  });

  serve(router, R.completeOrder, signedIn, async ({ params: { id } }, ctx) => {
    const order = await orderVisibleTo(db, id, ctx.state.user!);
    await confirmOrderPaid(deps, order);
    return presentOrder(await orderVisibleTo(db, id, ctx.state.user!));
  });

  serve(router, R.userEntries, signedIn, async (_, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    return await listUserEntries(db, ctx.state.user!.id);
  });

  // The spec's hosted-page card provider: signs the hidden form the browser posts to it. Orders are
  // fulfilled through Stripe or the sandbox; without CASHFLOWS_* settings the spec's clear 503.
  const cashflowsOn: Middleware = (_, next) => {
    if (!config.cashflows) {
      const message = 'Payment provider not configured';
      throw new HttpError(503, ERROR_CODES.paymentUnavailable, message);
    }
    return next();
  };
  serve(router, R.cashflowsSignature, signedIn, cashflowsOn, ({ body: input }, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    return hostedPaymentForm(config.cashflows!, {
      amountPence: input.amount,
      orderRef: input.orderRef,
      transactionUnique: input.transactionUnique,
      // The page the provider returns to: this site (CASHFLOWS_REDIRECT_URL overrides it).
      redirectUrl: `${ctx.protocol}://${ctx.host}/payment-success`,
    });
  });
}
