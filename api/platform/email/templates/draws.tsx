import type { Mailer } from '../../mailer';
import { Action, Facts, P, siteUrl, ukDateTime } from '../layout';
import { defineEmail, type Recipient } from '../template';

// The e-mails a draw sends: the winner's, and the result to every other entrant.

export interface DrawProps {
  name: string;
  title: string;
  winningNumber: number;
  drawnAt: Date | number;
  /** Where anyone can check the draw, e.g. '/competitions/7#verify-draw'. */
  verifyLink: string;
  /** With several main prizes: which one this winner won, e.g. '2nd prize: £500 cash'. */
  prize?: string;
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
        ]}
      />
      <P>We will be in touch about delivering your prize.</P>
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
