import { formatPence } from '../../../../contract/money';
import type { Mailer } from '../../mailer';
import { Action, Facts, P, siteUrl, ukDate } from '../layout';
import { defineEmail, type Recipient } from '../template';

// The e-mails about an order: confirmed, and cancelled or refunded.

export interface OrderConfirmationProps {
  name: string;
  /** 'ORD-000123' */
  orderNumber: string;
  placedAt: Date | number;
  lines: ReadonlyArray<{ title: string; quantity: number; numbers: readonly number[]; totalPence: number }>;
  subtotalPence: number;
  creditAppliedPence: number;
  /** What the card paid. */
  totalPence: number;
  /** A message about the order (e.g. replacement numbers), or null. */
  notice: string | null;
  /** The order's page, e.g. '/confirmation/123'. */
  orderLink: string;
}

export const orderConfirmationEmail = defineEmail<OrderConfirmationProps>({
  name: 'order-confirmation',
  category: 'transactional',
  subject: (p, brand) => `Your ${brand.siteName} order ${p.orderNumber} is confirmed`,
  Body: ({ props: p, brand }) => (
    <>
      <P>Hello {p.name},</P>
      <P>Thank you for entering with {brand.siteName}. Your order is confirmed.</P>
      <Facts
        rows={[
          ['Order number', p.orderNumber],
          ['Date', ukDate(p.placedAt)],
        ]}
      />
      {p.lines.map((l) => (
        <P key={l.title}>
          <strong>{l.title}</strong>: {l.quantity} {l.quantity === 1 ? 'ticket' : 'tickets'},{' '}
          {formatPence(l.totalPence)}
          <br />
          Your numbers: {[...l.numbers].sort((a, b) => a - b).join(', ')}
        </P>
      ))}
      <Facts
        rows={[
          ['Subtotal', formatPence(p.subtotalPence)],
          ...(p.creditAppliedPence > 0
            ? [['Site credit', `-${formatPence(p.creditAppliedPence)}`] as const]
            : []),
          ['Paid by card', formatPence(p.totalPence)],
        ]}
      />
      {p.notice && <P>{p.notice}</P>}
      <Action href={siteUrl(brand, p.orderLink)} label="View your order" />
      <P>Good luck!</P>
    </>
  ),
});

export const sendOrderConfirmation = (mailer: Mailer, to: Recipient, props: OrderConfirmationProps) =>
  mailer.send(orderConfirmationEmail, to, props);

/** Where money went back: the card that paid, or the customer's site credit. */
export type RefundMethod = 'card' | 'site credit';

export interface OrderCancelledProps {
  name: string;
  orderNumber: string;
  /** Why, in a sentence the customer can read. */
  reason: string;
  /** Each amount returned and how; empty when nothing had been taken. */
  refunds: ReadonlyArray<{ method: RefundMethod; amountPence: number }>;
  /** The card refund is still going through (the gateway did not answer yet). */
  cardRefundPending: boolean;
}

const refundLine = (r: { method: RefundMethod; amountPence: number }, pending: boolean) =>
  r.method === 'card'
    ? `${formatPence(r.amountPence)} ${pending ? 'is being refunded' : 'has been refunded'} to the card you paid with.`
    : `${formatPence(r.amountPence)} has been returned to your site credit.`;

export const orderCancelledEmail = defineEmail<OrderCancelledProps>({
  name: 'order-cancelled',
  category: 'transactional',
  subject: (p, brand) =>
    p.refunds.length > 0
      ? `Your ${brand.siteName} order ${p.orderNumber} has been cancelled and refunded`
      : `Your ${brand.siteName} order ${p.orderNumber} has been cancelled`,
  Body: ({ props: p, brand }) => (
    <>
      <P>Hello {p.name},</P>
      <P>
        Your order {p.orderNumber} has been cancelled. {p.reason}
      </P>
      {p.refunds.length === 0 ? (
        <P>No money was taken for this order.</P>
      ) : (
        p.refunds.map((r) => <P key={r.method}>{refundLine(r, p.cardRefundPending)}</P>)
      )}
      {p.refunds.some((r) => r.method === 'card') && (
        <P>A card refund usually shows on your statement within 5 to 10 working days.</P>
      )}
      <P>The tickets of this order are no longer entered in the draw.</P>
      <Action href={siteUrl(brand, '/my-competitions')} label="See your entries" />
    </>
  ),
});

export const sendOrderCancelled = (mailer: Mailer, to: Recipient, props: OrderCancelledProps) =>
  mailer.send(orderCancelledEmail, to, props);
