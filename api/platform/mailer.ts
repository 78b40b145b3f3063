import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Knex } from 'knex';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import type { Config } from './config';
import { mayReceiveMarketing } from './email/consent';
import { renderEmail } from './email/render';
import type { Brand, EmailTemplate, Recipient } from './email/template';
import type { FaultInjector } from './faults';
import { createOutbox, type Outbox } from './outbox/worker';
import { readPromoter } from './settings/promoter';

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
  send<P>(
    template: EmailTemplate<P>,
    recipient: Recipient,
    props: P,
    options?: { messageId?: string },
  ): Promise<SendResult>;
  /**
   * The e-mails owed by committed facts (api/platform/outbox/): `oweMail` in the transaction,
   * then `deliver` after COMMIT; its worker retries what failed.
   */
  readonly outbox: Outbox;
}

interface Transport {
  destination: string;
  deliver(message: {
    to: string;
    subject: string;
    html: string;
    text: string;
    messageId?: string;
    headers?: Record<string, string>;
  }): Promise<{
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
  // Beside the outbox, not in it: the outbox holds only messages.
  const markers = path.join(config.dataDir, 'outbox-ids');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    destination: outbox,
    async deliver(message) {
      const info = await transport.sendMail({ from, ...message });
      await fs.mkdir(outbox, { recursive: true });
      // One file per Message-ID, as a mailbox keeps one copy: a message tried again (its process
      // died before its outbox row was marked sent) finds its file through a marker named by a
      // hash of the Message-ID, written first and holding the file's name.
      const tag = createHash('sha256').update(info.messageId).digest('hex').slice(0, 20);
      const marker = path.join(markers, tag);
      const known = await fs.readFile(marker, 'utf8').catch(() => null);
      if (known && (await fs.stat(path.join(outbox, known)).catch(() => null)))
        return { messageId: info.messageId, file: path.join(outbox, known) };
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const name = known ?? `${stamp}-${tag}.eml`;
      if (!known) {
        await fs.mkdir(markers, { recursive: true });
        await fs.writeFile(marker, name);
      }
      const file = path.join(outbox, name);
      // Written whole, then renamed: a crash never leaves half a message.
      await fs.writeFile(`${file}.part`, info.message as Buffer);
      await fs.rename(`${file}.part`, file);
      return { messageId: info.messageId, file };
    },
  };
}

export interface MailerOptions {
  /** Every template by name, for the outbox worker (api/platform/email/registry.ts). */
  templates?: ReadonlyMap<string, EmailTemplate<never>>;
  faults?: FaultInjector;
  /** Counts the outbox's tries: mail_outbox_sends_total. */
  countOutbox?: (result: 'sent' | 'retry' | 'failed') => void;
}

export function createMailer(
  config: Pick<Config, 'smtpUrl' | 'dataDir' | 'siteName' | 'supportEmail' | 'publicUrl' | 'outbox'>,
  db: Knex,
  logger: Logger,
  options: MailerOptions = {},
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

  const mailer: Omit<Mailer, 'outbox'> = {
    destination: transport.destination,
    brand,
    async send(template, recipient, props, options = {}) {
      if (template.category === 'marketing' && !(await mayReceiveMarketing(db, recipient.userId))) {
        return { status: 'suppressed' };
      }
      // The promoter as Site Settings name it now: every e-mail names it at its foot.
      const rendered = await renderEmail(template, props, { ...brand, promoter: await readPromoter(db) });
      const row = {
        userId: recipient.userId ?? null,
        recipient: recipient.to.slice(0, 254),
        subject: rendered.subject.slice(0, 255),
        template: template.name,
      };
      try {
        const sent = await transport.deliver({ to: recipient.to, ...rendered, messageId: options.messageId });
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
  const outbox = createOutbox({
    db,
    logger,
    settings: config.outbox,
    templates: options.templates ?? new Map(),
    send: (template, to, props, messageId) => mailer.send(template, to, props, { messageId }),
    publicUrl: config.publicUrl,
    faults: options.faults,
    count: options.countOutbox,
  });
  return { ...mailer, outbox };
}
