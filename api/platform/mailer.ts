import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from './config';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  /** Where mail goes, for logs: 'smtp' or the outbox folder. */
  readonly destination: string;
  send(message: MailMessage): Promise<{ messageId: string; file?: string }>;
}

/**
 * Outgoing mail through nodemailer. With SMTP_URL set, real mail over SMTP; otherwise each message
 * is written as an RFC 822 .eml file to DATA_DIR/outbox (openable in any mail client), so the
 * embedded set-up needs no mail server and nothing is lost.
 */
export function createMailer(
  config: Pick<Config, 'smtpUrl' | 'dataDir' | 'siteName' | 'supportEmail'>,
): Mailer {
  const from = { name: config.siteName, address: config.supportEmail };
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      destination: 'smtp',
      async send(message) {
        const info = await transport.sendMail({ from, ...message });
        return { messageId: info.messageId };
      },
    };
  }
  const outbox = path.join(config.dataDir, 'outbox');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    destination: outbox,
    async send(message) {
      const info = await transport.sendMail({ from, ...message });
      await fs.mkdir(outbox, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(outbox, `${stamp}-${randomBytes(4).toString('hex')}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      return { messageId: info.messageId, file };
    },
  };
}
