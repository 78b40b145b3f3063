import type { Mailer } from '../../mailer';
import { Action, Facts, P, siteUrl, ukDate, ukDateTime } from '../layout';
import { type Brand, defineEmail, type Recipient } from '../template';

// The e-mails a draw sends: the winner's, and the result to every other entrant.

export interface DrawProps {
  name: string;
  title: string;
  winningNumber: number;
  drawnAt: Date | number;
  /** Where anyone can check the draw, e.g. '/competitions/7#verify-draw'. */
  verifyLink: string;
  /** Which prize: '2nd prize: £500 cash' (the winner's e-mail always names it). */
  prize?: string;
  /** The winner's claim page, e.g. '/claims/12', and its deadline (docs/draws.md#7-claiming-a-prize). */
  claimLink?: string;
  claimDeadline?: Date | number;
  /** A postal winner's claim: the link opens it without an account. */
  claimByLink?: boolean;
}

/** How to claim: the steps and the deadline, with the claim page's button. */
export function ClaimSteps({
  link,
  deadline,
  brand,
  byLink = false,
}: {
  link: string;
  deadline: Date | number;
  brand: Brand;
  /** No account to sign in to: the button's link is the winner's own (a postal winner). */
  byLink?: boolean;
}) {
  return (
    <>
      <P>
        <strong>Claim your prize by {ukDate(deadline)}:</strong>{' '}
        {byLink
          ? '1. open your claim with the button below (no account needed; the link is yours alone, so keep this e-mail to yourself)'
          : '1. sign in and open your claim (the button below, or My Entries)'}
        ; 2. confirm the delivery address; 3. choose the prize or, where one is offered, the cash alternative.
        Unclaimed by then, the claim window closes and we decide with you what happens next.
      </P>
      <Action href={siteUrl(brand, link)} label="Claim your prize" />
    </>
  );
}

export const winnerEmail = defineEmail<DrawProps>({
  name: 'winner',
  category: 'transactional',
  subject: (p, brand) => `You won "${p.title}" with ${brand.siteName}!`,
  Body: ({ props: p, brand }) => (
    <>
      <P>Hello {p.name},</P>
      <P>
        <strong>Congratulations!</strong> You have won <strong>{p.title}</strong> with {brand.siteName}.
      </P>
      <Facts
        rows={[
          ...(p.prize ? ([['Prize', p.prize]] as const) : []),
          ['Winning ticket number', p.winningNumber],
          ['Drawn', `${ukDateTime(p.drawnAt)} (UK time)`],
          ...(p.claimDeadline ? ([['Claim by', ukDate(p.claimDeadline)]] as const) : []),
        ]}
      />
      {p.claimLink && p.claimDeadline ? (
        <ClaimSteps link={p.claimLink} deadline={p.claimDeadline} brand={brand} byLink={p.claimByLink} />
      ) : (
        <P>We will be in touch about delivering your prize.</P>
      )}
      <P>The draw's seed and entries are published, so anyone can check the result.</P>
      <Action href={siteUrl(brand, p.verifyLink)} label="Verify this draw" />
    </>
  ),
});

export const sendWinner = (mailer: Mailer, to: Recipient, props: DrawProps) =>
  mailer.send(winnerEmail, to, props);

export interface DrawResultProps extends DrawProps {
  /** The entrant's own numbers in this competition. */
  yourNumbers: readonly number[];
  /** With several main prizes: every prize's number, e.g. '1st prize #7, 2nd prize #3'. */
  allWinningNumbers?: string;
}

export const drawResultEmail = defineEmail<DrawResultProps>({
  name: 'draw-result',
  category: 'transactional',
  subject: (p) => `The draw for ${p.title} has been made: the winning number is ${p.winningNumber}`,
  Body: ({ props: p, brand }) => (
    <>
      <P>Hello {p.name},</P>
      <P>
        The draw for <strong>{p.title}</strong> has been made: the winning number is{' '}
        <strong>{p.winningNumber}</strong>.
      </P>
      <Facts
        rows={[
          ...(p.allWinningNumbers ? ([['Winning numbers', p.allWinningNumbers]] as const) : []),
          ['Your numbers', [...p.yourNumbers].sort((a, b) => a - b).join(', ')],
          ['Drawn', `${ukDateTime(p.drawnAt)} (UK time)`],
        ]}
      />
      <P>Not this time, but thank you for entering. Anyone can check that the draw was fair.</P>
      <Action href={siteUrl(brand, p.verifyLink)} label="Verify this draw" />
    </>
  ),
});

export const sendDrawResult = (mailer: Mailer, to: Recipient, props: DrawResultProps) =>
  mailer.send(drawResultEmail, to, props);
