import { formatPence } from '../../../../contract/money';
import { Action, Facts, P, siteUrl, ukDateTime } from '../layout';
import { defineEmail } from '../template';

// The marketing e-mails (docs/emails.md#marketing-e-mails): only to customers who opted in, each
// with its signed one-click unsubscribe link (List-Unsubscribe, RFC 8058).

export interface MarketingProps {
  name: string;
  title: string;
  /** '/competitions/7' */
  competitionLink: string;
  endDate: number;
  ticketPricePence: number;
  /** The signed unsubscribe path, '/api/unsubscribe?token=…'. */
  unsubscribeLink: string;
}

export const endingSoonEmail = defineEmail<MarketingProps>({
  name: 'ending-soon',
  category: 'marketing',
  subject: (p) => `Ending soon: ${p.title}`,
  unsubscribeLink: (p) => p.unsubscribeLink,
  Body: ({ props: p, brand }) => (
    <>
      <P>Hello {p.name},</P>
      <P>
        <strong>{p.title}</strong> closes soon, on {ukDateTime(p.endDate)} (UK time).
      </P>
      <Facts
        rows={[
          ['Closes', `${ukDateTime(p.endDate)} (UK time)`],
          ['Ticket price', formatPence(p.ticketPricePence)],
        ]}
      />
      <Action href={siteUrl(brand, p.competitionLink)} label="See the competition" />
    </>
  ),
});

export const newCompetitionEmail = defineEmail<MarketingProps>({
  name: 'new-competition',
  category: 'marketing',
  subject: (p) => `New competition live: ${p.title}`,
  unsubscribeLink: (p) => p.unsubscribeLink,
  Body: ({ props: p, brand }) => (
    <>
      <P>Hello {p.name},</P>
      <P>
        A new competition is live: <strong>{p.title}</strong>.
      </P>
      <Facts
        rows={[
          ['Ticket price', formatPence(p.ticketPricePence)],
          ['Closes', `${ukDateTime(p.endDate)} (UK time)`],
        ]}
      />
      <Action href={siteUrl(brand, p.competitionLink)} label="See the competition" />
    </>
  ),
});
