import { useEffect, useRef, useState } from 'react';
import styled from 'styled-components';
import type { ACCOUNT_ROUTES } from '../../../contract/apiAccounts';
import type { ORDER_ROUTES } from '../../../contract/apiOrders';
import type { OrderView } from '../../../contract/checkout';
import { ComplaintCreateSchema, type ComplaintStatus } from '../../../contract/complaints';
import { formatLongDate } from '../../../contract/londonTime';
import { call, useRoute } from '../../api/call';
import { toast } from '../../stores/toast';
import { Button } from '../ui/Button';
import { ErrorBox, Field, Form } from '../ui/Form';
import { Card } from '../ui/Page';
import { useValidatedSubmit } from '../ui/useValidatedSubmit';

// My Account > Complaints (docs/product.md#complaints): make a complaint, optionally about one of
// your orders, and follow each one's status and our replies.

export const STATUS_LABELS: Record<ComplaintStatus, string> = {
  open: 'Open',
  responded: 'Replied',
  closed: 'Closed',
};

const Control = styled.div`
  display: grid;
  gap: 4px;
  label { font-weight: 600; font-size: ${({ theme }) => theme.fontSizes.sm}; }
  textarea, select {
    min-height: 44px;
    padding: ${({ theme }) => theme.space.sm};
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: ${({ theme }) => theme.radii.md};
    background: ${({ theme }) => theme.colors.surface};
    font: inherit;
  }
  textarea { min-height: 120px; }
  small { color: ${({ theme }) => theme.colors.danger}; }
`;

const List = styled.ul`
  list-style: none;
  margin: ${({ theme }) => theme.space.md} 0 0;
  padding: 0;
  > li { padding: ${({ theme }) => theme.space.sm} 0; border-top: 1px solid ${({ theme }) => theme.colors.border}; }
  blockquote { margin: ${({ theme }) => theme.space.xs} 0 0 ${({ theme }) => theme.space.md}; white-space: pre-line; }
  small { color: ${({ theme }) => theme.colors.textMuted}; }
`;

function ComplaintForm({ orders, onSent }: { orders: OrderView[]; onSent: () => void }) {
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [orderId, setOrderId] = useState('');
  const { submit, errors, formError, busy } = useValidatedSubmit(
    ComplaintCreateSchema,
    { subject, message, orderId: orderId ? Number(orderId) : null },
    async (body) => {
      const { reference } = await call<typeof ACCOUNT_ROUTES.createComplaint>(
        { method: 'POST', path: '/api/complaints' },
        { body: body },
      );
      setSubject('');
      setMessage('');
      setOrderId('');
      toast({
        title: 'Complaint received',
        description: `Your reference is ${reference}. We have e-mailed you a copy.`,
        variant: 'success',
      });
      onSent();
    },
    'Your complaint could not be sent. Please try again.',
  );

  return (
    <Form onSubmit={submit} noValidate aria-label="Make a complaint">
      {formError && <ErrorBox role="alert">{formError}</ErrorBox>}
      <Field
        id="complaint-subject"
        label="Subject"
        value={subject}
        error={errors.subject}
        onChange={(e) => setSubject(e.target.value)}
      />
      <Control>
        <label htmlFor="complaint-order">Order (optional)</label>
        <select id="complaint-order" value={orderId} onChange={(e) => setOrderId(e.target.value)}>
          <option value="">Not about one order</option>
          {orders.map((o) => (
            <option key={o.id} value={o.id}>
              {o.orderNumber} ({formatLongDate(o.createdAt)})
            </option>
          ))}
        </select>
        {errors.orderId && <small>{errors.orderId}</small>}
      </Control>
      <Control>
        <label htmlFor="complaint-message">Your complaint</label>
        <textarea
          id="complaint-message"
          value={message}
          aria-invalid={errors.message ? true : undefined}
          onChange={(e) => setMessage(e.target.value)}
        />
        {errors.message && <small>{errors.message}</small>}
      </Control>
      <Button type="submit" disabled={busy}>
        {busy ? 'Sending...' : 'Send complaint'}
      </Button>
    </Form>
  );
}

/** The customer's complaints and the form to make one; the page's #complaints anchor. */
export function ComplaintsSection() {
  const complaints = useRoute<typeof ACCOUNT_ROUTES.complaints>(
    { method: 'GET', path: '/api/complaints' },
    {},
  );
  const orders = useRoute<typeof ORDER_ROUTES.orders>({ method: 'GET', path: '/api/orders' }, {});
  const ref = useRef<HTMLElement>(null);
  // The footer's and the Terms' 'Complaints' links land here (/profile#complaints).
  useEffect(() => {
    if (window.location.hash === '#complaints') ref.current?.scrollIntoView();
  }, []);
  return (
    <Card id="complaints" ref={ref} aria-labelledby="complaints-title">
      <h2 id="complaints-title">Complaints</h2>
      <p>
        Not happy with something? Tell us here. We will reply by e-mail by the date shown, and you can follow
        each complaint below.
      </p>
      <ComplaintForm orders={orders.data ?? []} onSent={complaints.reload} />
      {complaints.error && <ErrorBox>We couldn't load your complaints.</ErrorBox>}
      {complaints.data && complaints.data.length === 0 && <p>You have not made any complaints.</p>}
      {complaints.data && complaints.data.length > 0 && (
        <List aria-label="Your complaints">
          {complaints.data.map((c) => (
            <li key={c.reference} data-testid="complaint">
              <strong>{c.subject}</strong> <span data-status={c.status}>{STATUS_LABELS[c.status]}</span>
              <br />
              <small>
                {c.reference}
                {c.orderNumber ? ` · ${c.orderNumber}` : ''} · sent {formatLongDate(c.createdAt)}
                {c.status === 'open' ? ` · reply due by ${formatLongDate(c.dueAt)}` : ''}
              </small>
              {c.replies.map((r) => (
                <blockquote key={r.createdAt}>
                  <small>Our reply, {formatLongDate(r.createdAt)}:</small>
                  <br />
                  {r.message}
                </blockquote>
              ))}
            </li>
          ))}
        </List>
      )}
    </Card>
  );
}
