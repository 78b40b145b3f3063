import { route } from './apiRoute';
import type {
  OrderView,
  PaymentIntentResponse,
  SandboxConfirmResult,
  StripeConfirmResult,
  UserEntryView,
} from './checkout';
import {
  CashflowsSignatureSchema,
  CreatePaymentIntentSchema,
  OrderIdSchema,
  SandboxConfirmSchema,
  StripeConfirmSchema,
  UpdateOrderSchema,
} from './checkout';
import type { ReceiptView } from './receipts';

/** The fields the browser posts to the card provider's hosted page, signed. */
export interface CashflowsForm {
  merchantID: string;
  amount: number;
  currency: string;
  orderRef: string;
  transactionUnique: string;
  redirectURL: string;
  test: boolean;
  signature: string;
  fields: Record<string, string | number>;
}

/** Checkout and payments, orders and My Entries (the back office's are in apiAdminOrders.ts). */
export const ORDER_ROUTES = {
  createPaymentIntent: route<PaymentIntentResponse>()({
    method: 'POST',
    path: '/api/create-payment-intent',
    body: CreatePaymentIntentSchema,
  }),
  confirmSandboxPayment: route<SandboxConfirmResult>()({
    method: 'POST',
    path: '/api/payments/sandbox/confirm',
    body: SandboxConfirmSchema,
  }),
  confirmStripePayment: route<StripeConfirmResult>()({
    method: 'POST',
    path: '/api/payments/stripe/confirm',
    body: StripeConfirmSchema,
  }),
  stripeWebhook: route()({
    method: 'POST',
    path: '/api/stripe/webhook',
    kind: 'webhook',
    note: "Stripe's signed call: no CSRF token, and it reads its own raw body.",
  }),
  order: route<OrderView>()({ method: 'GET', path: '/api/orders/:id', params: OrderIdSchema }),
  completeOrder: route<OrderView>()({
    method: 'PATCH',
    path: '/api/orders/:id',
    params: OrderIdSchema,
    body: UpdateOrderSchema,
  }),
  userEntries: route<UserEntryView[]>()({ method: 'GET', path: '/api/user-entries' }),
  cashflowsSignature: route<CashflowsForm>()({
    method: 'POST',
    path: '/api/generate-cashflows-signature',
    body: CashflowsSignatureSchema,
  }),
  orders: route<OrderView[]>()({ method: 'GET', path: '/api/orders' }),
  receipt: route<ReceiptView>()({ method: 'GET', path: '/api/orders/:id/receipt', params: OrderIdSchema }),
};
