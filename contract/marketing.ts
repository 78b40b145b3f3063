import * as v from 'valibot';
import { CompetitionIdTextSchema } from './competitions';

// Marketing e-mails and the watchlist (docs/emails.md#marketing-e-mails,
// docs/product.md#watching-a-competition).

/** The kinds of marketing e-mail; an unsubscribe token names one. */
export const MARKETING_KINDS = ['ending-soon', 'new-competition'] as const;
export type MarketingKind = (typeof MARKETING_KINDS)[number];

/** Path parameter :competitionId of the watchlist routes. */
export const WatchCompetitionParamSchema = v.object({ competitionId: CompetitionIdTextSchema });

/** ?token= of the one-click unsubscribe link (signed; checked by the server). */
export const UnsubscribeQuerySchema = v.object({
  token: v.pipe(
    v.string('The unsubscribe link is missing its token.'),
    v.minLength(1, 'The unsubscribe link is missing its token.'),
    v.maxLength(500, 'This unsubscribe link is not valid.'),
  ),
});

/** One watched competition, as My Profile lists it (with its end date for the countdown). */
export interface WatchedCompetitionView {
  competitionId: number;
  title: string;
  image: string;
  /** ISO 8601. */
  endDate: string;
  status: string;
  /** ISO 8601: when the customer started watching. */
  watchedAt: string;
}

export interface WatchlistView {
  competitions: WatchedCompetitionView[];
}

export interface WatchChangeView {
  competitionId: number;
  watching: boolean;
}

/** One campaign on the admin's Campaigns page. */
export interface CampaignView {
  id: number;
  kind: MarketingKind;
  competitionId: number;
  title: string;
  /** ISO 8601. */
  startedAt: string;
  /** E-mails sent. */
  sent: number;
  /** E-mails not sent yet: waiting for the customer's daily allowance, or to be sent. */
  waiting: number;
  /** Over the allowance with no time left before the competition closes. */
  dropped: number;
  /** Customers who unsubscribed with a link from this campaign. */
  unsubscribed: number;
}

/** The confirmation of a one-click unsubscribe (JSON for a mail client; a browser gets the page). */
export interface UnsubscribedView {
  unsubscribed: true;
  message: string;
}

export const UNSUBSCRIBED_MESSAGE = 'You will get no more marketing e-mails from us.';
export const UNSUBSCRIBE_LINK_INVALID = 'This unsubscribe link is not valid.';
