import type { Mailer } from '../../mailer';
import { Action, Facts, P, siteUrl, ukDate } from '../layout';
import { defineEmail, type Recipient } from '../template';

// The complaints process (docs/product.md#complaints): the acknowledgement with the reference and
// the date an answer is due, and each reply an admin writes.

export interface ComplaintReceivedProps {
  name: string;
  reference: string;
  subject: string;
  dueAt: number;
}

export const complaintReceivedEmail = defineEmail<ComplaintReceivedProps>({
  name: 'complaint-received',
  category: 'transactional',
  subject: (p, brand) => `We have received your complaint ${p.reference} (${brand.siteName})`,
  Body: ({ props: p, brand }) => (
    <>
      <P>Hello {p.name},</P>
      <P>Thank you for telling us. We have recorded your complaint and will reply by e-mail.</P>
      <Facts
        rows={[
          ['Reference', p.reference],
          ['Subject', p.subject],
          ['We will reply by', ukDate(p.dueAt)],
        ]}
      />
      <Action href={siteUrl(brand, '/profile#complaints')} label="See your complaints" />
    </>
  ),
});

export const sendComplaintReceived = (mailer: Mailer, to: Recipient, props: ComplaintReceivedProps) =>
  mailer.send(complaintReceivedEmail, to, props);

export interface ComplaintReplyProps {
  name: string;
  reference: string;
  subject: string;
  reply: string;
}

export const complaintReplyEmail = defineEmail<ComplaintReplyProps>({
  name: 'complaint-reply',
  category: 'transactional',
  subject: (p) => `Our reply to your complaint ${p.reference}`,
  Body: ({ props: p, brand }) => (
    <>
      <P>Hello {p.name},</P>
      <P>
        This is our reply to your complaint {p.reference} ({p.subject}):
      </P>
      {p.reply.split('\n').map((line, i) => (
        // Lines of one fixed text, never reordered.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <P key={i}>{line}</P>
      ))}
      <P>
        If you are not satisfied, reply to this e-mail or write to {brand.supportEmail} quoting {p.reference}.
      </P>
      <Action href={siteUrl(brand, '/profile#complaints')} label="See your complaints" />
    </>
  ),
});

export const sendComplaintReply = (mailer: Mailer, to: Recipient, props: ComplaintReplyProps) =>
  mailer.send(complaintReplyEmail, to, props);
