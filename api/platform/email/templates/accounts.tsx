import { formatPence } from '../../../../contract/money';
import type { Mailer } from '../../mailer';
import { Action, P, siteUrl, ukDateTime } from '../layout';
import { defineEmail, type Recipient } from '../template';

// The account e-mails (issue 17): verification, welcome, password reset, password changed, and
// e-mail changed (to the old address). Each has a typed send function for the flows to call.

/** A link with a token that stops working at `expiresAt`. `link` may be a site path. */
export interface TokenLinkProps {
  name: string;
  link: string;
  expiresAt: Date | number;
}

export const verificationEmail = defineEmail<TokenLinkProps>({
  name: 'verification',
  category: 'transactional',
  subject: (_p, brand) => `Please confirm your e-mail address for ${brand.siteName}`,
  Body: ({ props: p, brand }) => (
    <>
      <P>Hello {p.name},</P>
      <P>Please confirm that this is your e-mail address by opening the link below.</P>
      <Action href={siteUrl(brand, p.link)} label="Confirm my e-mail address" />
      <P>The link works once and expires on {ukDateTime(p.expiresAt)} (UK time).</P>
      <P>If you did not ask for this, you can ignore this e-mail.</P>
    </>
  ),
});

export const sendVerification = (mailer: Mailer, to: Recipient, props: TokenLinkProps) =>
  mailer.send(verificationEmail, to, props);

export interface WelcomeProps {
  name: string;
  /** Welcome credit paid on verification, in pence; 0 or absent when there is none. */
  creditPence?: number;
}

export const welcomeEmail = defineEmail<WelcomeProps>({
  name: 'welcome',
  category: 'transactional',
  subject: (_p, brand) => `Welcome to ${brand.siteName}`,
  Body: ({ props: p, brand }) => (
    <>
      <P>Hello {p.name},</P>
      <P>Your e-mail address is confirmed. Welcome to {brand.siteName}!</P>
      {p.creditPence ? (
        <P>We have added {formatPence(p.creditPence)} of site credit to your account, to use at checkout.</P>
      ) : null}
      <Action href={siteUrl(brand, '/competitions')} label="Browse the competitions" />
    </>
  ),
});

export const sendWelcome = (mailer: Mailer, to: Recipient, props: WelcomeProps) =>
  mailer.send(welcomeEmail, to, props);

export const passwordResetEmail = defineEmail<TokenLinkProps>({
  name: 'password-reset',
  category: 'transactional',
  subject: (_p, brand) => `Reset your ${brand.siteName} password`,
  Body: ({ props: p, brand }) => (
    <>
      <P>Hello {p.name},</P>
      <P>Someone asked to reset the password of your account. To choose a new one, open the link below.</P>
      <Action href={siteUrl(brand, p.link)} label="Choose a new password" />
      <P>The link works once and expires on {ukDateTime(p.expiresAt)} (UK time).</P>
      <P>If it was not you, ignore this e-mail: your password stays as it is.</P>
      <P>
        If, once you have signed in with the new password, the site asks for a two-factor code you never set
        up, reply to {brand.supportEmail}: after checking that the account is yours, we turn two-factor
        sign-in off.
      </P>
    </>
  ),
});

export const sendPasswordReset = (mailer: Mailer, to: Recipient, props: TokenLinkProps) =>
  mailer.send(passwordResetEmail, to, props);

export interface AccountNoticeProps {
  name: string;
  /** When the change was made. */
  changedAt: Date | number;
}

/** Who to tell when the change was not the customer's own doing. */
function NotYou({ supportEmail }: { supportEmail: string }) {
  return <P>If you did not make this change, contact us at once at {supportEmail}.</P>;
}

export const passwordChangedEmail = defineEmail<AccountNoticeProps>({
  name: 'password-changed',
  category: 'transactional',
  subject: (_p, brand) => `Your ${brand.siteName} password has been changed`,
  Body: ({ props: p, brand }) => (
    <>
      <P>Hello {p.name},</P>
      <P>The password of your account was changed on {ukDateTime(p.changedAt)} (UK time).</P>
      <NotYou supportEmail={brand.supportEmail} />
    </>
  ),
});

export const sendPasswordChanged = (mailer: Mailer, to: Recipient, props: AccountNoticeProps) =>
  mailer.send(passwordChangedEmail, to, props);

export interface EmailChangedProps extends AccountNoticeProps {
  /** The address the account is moving to (this e-mail goes to the old one). */
  newEmail: string;
}

export const emailChangedEmail = defineEmail<EmailChangedProps>({
  name: 'email-changed',
  category: 'transactional',
  subject: (_p, brand) => `The e-mail address of your ${brand.siteName} account is changing`,
  Body: ({ props: p, brand }) => (
    <>
      <P>Hello {p.name},</P>
      <P>
        On {ukDateTime(p.changedAt)} (UK time) a change of your account's e-mail address to {p.newEmail} was
        requested. It takes effect once the new address is confirmed; after that, we write to the new address
        only.
      </P>
      <NotYou supportEmail={brand.supportEmail} />
    </>
  ),
});

export const sendEmailChanged = (mailer: Mailer, to: Recipient, props: EmailChangedProps) =>
  mailer.send(emailChangedEmail, to, props);

export const twoFactorOnEmail = defineEmail<TokenLinkProps & { changedAt: Date | number }>({
  name: 'two-factor-on',
  category: 'transactional',
  subject: (_p, brand) => `Two-factor sign-in was turned on for your ${brand.siteName} account`,
  Body: ({ props: p, brand }) => (
    <>
      <P>Hello {p.name},</P>
      <P>
        Two-factor sign-in was turned on for your account on {ukDateTime(p.changedAt)} (UK time). From now on,
        signing in asks for a code from the authenticator app it was set up with.
      </P>
      <P>
        If this wasn't you, open the link below: it lets you choose a new password, turns two-factor sign-in
        off and signs out every session.
      </P>
      <Action href={siteUrl(brand, p.link)} label="This wasn't me" />
      <P>
        The link works once and expires on {ukDateTime(p.expiresAt)} (UK time). After that, write to{' '}
        {brand.supportEmail}.
      </P>
    </>
  ),
});
