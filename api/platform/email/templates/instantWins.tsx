import { formatPence } from '../../../../contract/money';
import type { Mailer } from '../../mailer';
import { Action, Facts, P, siteUrl } from '../layout';
import { defineEmail, type Recipient } from '../template';

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
            ? ([['Site credit added', formatPence(p.amountPence)]] as const)
            : []),
        ]}
      />
      {p.description ? <P>{p.description}</P> : null}
      <P>
        {p.kind === 'credit'
          ? 'The credit is already in your account, ready to spend.'
          : 'We will be in touch about delivering your prize.'}
      </P>
      <Action href={siteUrl(brand, p.orderLink)} label="View your order" />
    </>
  ),
});

export const sendInstantWin = (mailer: Mailer, to: Recipient, props: InstantWinProps) =>
  mailer.send(instantWinEmail, to, props);
