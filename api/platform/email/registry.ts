import type { EmailTemplate } from './template';
import {
  emailChangedEmail,
  passwordChangedEmail,
  passwordResetEmail,
  verificationEmail,
  welcomeEmail,
} from './templates/accounts';
import { competitionCancelledEmail, competitionExtendedEmail } from './templates/competitionChanges';
import { complaintReceivedEmail, complaintReplyEmail } from './templates/complaints';
import { drawResultEmail, winnerEmail } from './templates/draws';
import { instantWinEmail } from './templates/instantWins';
import { endingSoonEmail, newCompetitionEmail } from './templates/marketing';
import { orderCancelledEmail, orderConfirmationEmail } from './templates/orders';

// Every template by its name, for the outbox worker: a mail_outbox row names its template and is
// rendered when it is sent (docs/emails.md#the-outbox).

const all: EmailTemplate<never>[] = [
  verificationEmail,
  welcomeEmail,
  passwordResetEmail,
  passwordChangedEmail,
  emailChangedEmail,
  complaintReceivedEmail,
  complaintReplyEmail,
  winnerEmail,
  drawResultEmail,
  instantWinEmail,
  orderConfirmationEmail,
  orderCancelledEmail,
  endingSoonEmail,
  newCompetitionEmail,
  competitionExtendedEmail,
  competitionCancelledEmail,
] as never[];

export const EMAIL_TEMPLATES: ReadonlyMap<string, EmailTemplate<never>> = new Map(
  all.map((t) => [t.name, t]),
);
