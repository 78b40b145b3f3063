import { formatPence } from '../../../../contract/money';
import type { Mailer } from '../../mailer';
import { Action, Facts, P, siteUrl } from '../layout';
import { defineEmail, type Recipient } from '../template';
import { ClaimSteps } from './draws';

// The instant-win winner's e-mail (docs/draws.md#instant-wins), sent after the sale commits.

export interface InstantWinProps {
  name: string;
  competitionTitle: string;
  prizeTitle: string;
  number: number;
  kind: 'credit' | 'prize';
  /** Credit paid into the account (credit prizes). */
  amountPence: number | null;
  description: string | null;
  /** e.g. '/confirmation/123' */
  orderLink: string;
  /** A prize to claim: its claim page and deadline (docs/draws.md#7-claiming-a-prize). */
  claimLink?: string;
  claimDeadline?: Date | number;
  /** A postal winner without an account: the claim link carries its token; credit is paid as cash. */
  claimByLink?: boolean;
}

export const instantWinEmail = defineEmail<InstantWinProps>({
  name: 'instant-win',
  category: 'transactional',
  subject: (p, brand) => `You won instantly with ${brand.siteName}: ${p.prizeTitle}!`,
  Body: ({ props: p, brand }) => (
    <>
      <P>Hello {p.name},</P>
      <P>
        <strong>You won instantly!</strong> Ticket number {p.number} in <strong>{p.competitionTitle}</strong>{' '}
        wins <strong>{p.prizeTitle}</strong>.
      </P>
      <Facts
        rows={[
          ['Winning ticket number', p.number],
          ['Prize', p.prizeTitle],
          ...(p.kind === 'credit' && p.amountPence !== null
            ? ([[p.claimByLink ? 'Paid as cash' : 'Site credit added', formatPence(p.amountPence)]] as const)
            : []),
        ]}
      />
      {p.description ? <P>{p.description}</P> : null}
      {p.kind === 'credit' && !p.claimByLink ? (
        <P>The credit is already in your account, ready to spend.</P>
      ) : null}
      {p.kind === 'credit' && p.claimByLink && p.amountPence !== null ? (
        <P>
          Site credit needs an account, and you entered by post, so we pay it to you as{' '}
          {formatPence(p.amountPence)} in cash, by bank transfer.
        </P>
      ) : null}
      {p.claimLink && p.claimDeadline ? (
        <ClaimSteps link={p.claimLink} deadline={p.claimDeadline} brand={brand} byLink={p.claimByLink} />
      ) : p.kind === 'prize' ? (
        <P>We will be in touch about your prize.</P>
      ) : null}
      {/* A postcard's £0 order has no page its entrant can open: the claim is theirs. */}
      {p.claimByLink ? null : <Action href={siteUrl(brand, p.orderLink)} label="View your order" />}
    </>
  ),
});

export const sendInstantWin = (mailer: Mailer, to: Recipient, props: InstantWinProps) =>
  mailer.send(instantWinEmail, to, props);
