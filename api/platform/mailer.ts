import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Knex } from 'knex';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import type { Config } from './config';
import { mayReceiveMarketing } from './email/consent';
import { renderEmail } from './email/render';
import type { Brand, EmailTemplate, Recipient } from './email/template';

export type SendResult =
  | { status: 'sent'; messageId: string; file?: string }
  /** A marketing e-mail to someone who has not opted in: not sent, not logged. */
  | { status: 'suppressed' };

export interface Mailer {
  /** Where mail goes, for logs: 'smtp' or the outbox folder. */
  readonly destination: string;
  readonly brand: Brand;
  /**
   * Renders the template (HTML and plain text in the shared layout), applies the marketing
   * consent guard, sends, and records the attempt in mail_log. A failed send is logged and then
   * thrown, so the caller decides what a failure means for it.
   */
  send<P>(template: EmailTemplate<P>, recipient: Recipient, props: P): Promise<SendResult>;
}

interface Transport {
  destination: string;
  deliver(message: { to: string; subject: string; html: string; text: string }): Promise<{
    messageId: string;
    file?: string;
  }>;
}

/**
 * Outgoing mail through nodemailer. With SMTP_URL set, real mail over SMTP; otherwise each message
 * is written as an RFC 822 .eml file to DATA_DIR/outbox (openable in any mail client), so the
 * embedded set-up needs no mail server and nothing is lost.
 */
function createTransport(config: Pick<Config, 'smtpUrl' | 'dataDir'>, brand: Brand): Transport {
  const from = { name: brand.siteName, address: brand.supportEmail };
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      destination: 'smtp',
      async deliver(message) {
        const info = await transport.sendMail({ from, ...message });
        return { messageId: info.messageId };
      },
    };
  }
  const outbox = path.join(config.dataDir, 'outbox');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    destination: outbox,
    async deliver(message) {
      const info = await transport.sendMail({ from, ...message });
      await fs.mkdir(outbox, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(outbox, `${stamp}-${randomBytes(4).toString('hex')}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      return { messageId: info.messageId, file };
    },
  };
}

export function createMailer(
  config: Pick<Config, 'smtpUrl' | 'dataDir' | 'siteName' | 'supportEmail' | 'publicUrl'>,
  db: Knex,
  logger: Logger,
): Mailer {
  const brand: Brand = {
    siteName: config.siteName,
    supportEmail: config.supportEmail,
    publicUrl: config.publicUrl,
  };
  const transport = createTransport(config, brand);

  /** The mail log row. Its own failure is logged, never turned into a failed send. */
  const record = async (row: Record<string, unknown>) => {
    try {
      await db('mailLog').insert({ ...row, createdAt: Date.now() });
    } catch (err) {
      logger.error({ err, to: row.recipient, template: row.template }, 'could not write the mail log');
    }
  };

  return {
    destination: transport.destination,
    brand,
    async send(template, recipient, props) {
      if (template.category === 'marketing' && !(await mayReceiveMarketing(db, recipient.userId))) {
        return { status: 'suppressed' };
      }
      const rendered = await renderEmail(template, props, brand);
      const row = {
        userId: recipient.userId ?? null,
        recipient: recipient.to.slice(0, 254),
        subject: rendered.subject.slice(0, 255),
        template: template.name,
      };
      try {
        const sent = await transport.deliver({ to: recipient.to, ...rendered });
        await record({ ...row, status: 'sent', messageId: sent.messageId.slice(0, 255) });
        return { status: 'sent', ...sent };
      } catch (err) {
        await record({
          ...row,
          status: 'failed',
          error: String((err as Error).message ?? err).slice(0, 255),
        });
        throw err;
      }
    },
  };
}
