import { formatDayMonthAt } from '../../../../contract/londonTime';
import { Action, Facts, P, siteUrl } from '../layout';
import { defineEmail } from '../template';

// What every entrant is told when a competition that missed its minimum is extended, or when a
// competition is cancelled and refunded (docs/product.md#minimum-sales-and-cancellation).

export interface CompetitionExtendedProps {
  name: string;
  title: string;
  /** The new end date (epoch ms). */
  endDate: number;
  minTicketsSold: number;
  /** e.g. '/competitions/12' */
  link: string;
}

export const competitionExtendedEmail = defineEmail<CompetitionExtendedProps>({
  name: 'competition-extended',
  category: 'transactional',
  subject: (p) => `"${p.title}" has been extended to ${formatDayMonthAt(p.endDate)}`,
  Body: ({ props: p, brand }) => (
    <>
      <P>Hello {p.name},</P>
      <P>
        Fewer than {p.minTicketsSold.toLocaleString('en-GB')} tickets were sold for <strong>{p.title}</strong>{' '}
        by its end date, so, as its rules say, it has been extended. Your entries stay in the draw.
      </P>
      <Facts rows={[['New end date', `${formatDayMonthAt(p.endDate)} (UK time)`]]} />
      <Action href={siteUrl(brand, p.link)} label="View the competition" />
    </>
  ),
});

export interface CompetitionCancelledProps {
  name: string;
  title: string;
  /** Why, as the page says it: 'the minimum of 500 entries was not reached'. */
  reason: string;
  /** The entrant's orders, 'ORD-000123'. */
  orders: readonly string[];
}

export const competitionCancelledEmail = defineEmail<CompetitionCancelledProps>({
  name: 'competition-cancelled',
  category: 'transactional',
  subject: (p) => `"${p.title}" has been cancelled and your entry refunded`,
  Body: ({ props: p, brand }) => (
    <>
      <P>Hello {p.name},</P>
      <P>
        <strong>{p.title}</strong> has been cancelled: {p.reason.replace(/[.\s]+$/, '')}. There will be no
        draw, and every entry has been refunded.
      </P>
      {p.orders.length ? <Facts rows={[['Your orders refunded', p.orders.join(', ')]]} /> : null}
      <P>
        Card payments go back to the card that paid (banks usually take 5 to 10 working days to show it); site
        credit you spent is back in your account now. A free postal entry had nothing to refund.
      </P>
      <Action href={siteUrl(brand, '/')} label={`Browse ${brand.siteName}`} />
    </>
  ),
});
