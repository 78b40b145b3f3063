import type { IncomingMessage } from 'node:http';
import type { Router } from '@koa/router';
import {
  CashflowsSignatureSchema,
  CreatePaymentIntentSchema,
  OrderIdSchema,
  SandboxConfirmSchema,
  StripeConfirmSchema,
  UpdateOrderSchema,
} from '../../../contract/checkout';
import { ERROR_CODES } from '../../../contract/errors';
import { requireDateOfBirth, requireUser } from '../../http/auth';
import { parse } from '../../http/validate';
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
export const STRIPE_WEBHOOK_PATH = '/api/stripe/webhook';
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

  router.post('/api/create-payment-intent', signedIn, requireDateOfBirth(db), async (ctx) => {
    const input = parse(CreatePaymentIntentSchema, ctx.request.body ?? {});
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await createPaymentIntent(deps, ctx.state.user!, ensureGuestId(ctx.session!), input);
  });

  router.post('/api/payments/sandbox/confirm', signedIn, async (ctx) => {
    if (!(gateway instanceof SandboxGateway))
      throw notFound('The payment sandbox is not enabled on this server.');
    const input = parse(SandboxConfirmSchema, ctx.request.body);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await confirmSandboxPayment(deps, gateway, ctx.state.user!, input);
  });

  router.post('/api/payments/stripe/confirm', signedIn, async (ctx) => {
    if (!(gateway instanceof StripeGateway)) throw notFound('Stripe is not configured on this server.');
    const input = parse(StripeConfirmSchema, ctx.request.body ?? {});
    ctx.set('Cache-Control', 'no-store');
    const returnUrl = `${config.publicUrl}/confirmation/${input.orderId}`;
    ctx.body = await confirmStripePayment(deps, gateway, ctx.state.user!, input, returnUrl);
  });

  router.post(STRIPE_WEBHOOK_PATH, async (ctx) => {
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

  router.get('/api/orders/:id', signedIn, async (ctx) => {
    const { id } = parse(OrderIdSchema, ctx.params);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = presentOrder(await orderVisibleTo(db, id, ctx.state.user!));
  });

  router.patch('/api/orders/:id', signedIn, async (ctx) => {
    const { id } = parse(OrderIdSchema, ctx.params);
    const order = await orderVisibleTo(db, id, ctx.state.user!);
    parse(UpdateOrderSchema, ctx.request.body);
    await confirmOrderPaid(deps, order);
    ctx.body = presentOrder(await orderVisibleTo(db, id, ctx.state.user!));
  });

  router.get('/api/user-entries', signedIn, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await listUserEntries(db, ctx.state.user!.id);
  });

  // The spec's hosted-page card provider: signs the hidden form the browser posts to it. Orders are
  // fulfilled through Stripe or the sandbox; without CASHFLOWS_* settings the spec's clear 503.
  router.post('/api/generate-cashflows-signature', signedIn, (ctx) => {
    if (!config.cashflows) {
      const message = 'Payment provider not configured';
      throw new HttpError(503, ERROR_CODES.paymentUnavailable, message);
    }
    const input = parse(CashflowsSignatureSchema, ctx.request.body);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = hostedPaymentForm(config.cashflows, {
      amountPence: input.amount,
      orderRef: input.orderRef,
      transactionUnique: input.transactionUnique,
      // The page the provider returns to: this site (CASHFLOWS_REDIRECT_URL overrides it).
      redirectUrl: `${ctx.protocol}://${ctx.host}/payment-success`,
    });
  });
}
