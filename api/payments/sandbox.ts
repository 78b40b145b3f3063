import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Knex } from 'knex';
import { isUniqueViolation } from '../../db/dialect';
import { type CreatedIntent, GatewayError, type IntentState, type PaymentGateway } from './gateway';

// The offline gateway: payment intents and refunds are rows in this database, cards are the test
// cards of sandboxCards.ts, and no money ever moves. It lets `npm start` sell tickets with no
// network and no keys; config.ts refuses it in production unless PAYMENTS_SANDBOX=1.

export interface SandboxIntentRow {
  id: string;
  clientSecret: string;
  orderId: number | null;
  amountPence: number;
  currency: string;
  status: 'requires_payment_method' | 'succeeded' | 'canceled';
  idempotencyKey: string | null;
  lastErrorCode: string | null;
  lastErrorMessage: string | null;
  attempts: number;
  createdAt: number;
  updatedAt: number;
}

const token = (bytes: number) => randomBytes(bytes).toString('base64url');

const stateOf = (row: SandboxIntentRow): IntentState => ({
  id: row.id,
  status: row.status === 'requires_payment_method' ? 'open' : row.status,
  amountPence: row.amountPence,
  currency: row.currency,
  orderId: row.orderId,
  clientSecret: row.clientSecret,
  lastError: row.lastErrorMessage,
});

export class SandboxGateway implements PaymentGateway {
  readonly name = 'sandbox' as const;
  readonly publishableKey = null;
  readonly testMode = true;

  constructor(private readonly db: Knex) {}

  private async byId(id: string): Promise<SandboxIntentRow | undefined> {
    return this.db<SandboxIntentRow>('sandboxPaymentIntents').where({ id }).first();
  }

  async createIntent(input: Parameters<PaymentGateway['createIntent']>[0]): Promise<CreatedIntent> {
    const existing = await this.db<SandboxIntentRow>('sandboxPaymentIntents')
      .where({ idempotencyKey: input.idempotencyKey })
      .first();
    if (existing) return { id: existing.id, clientSecret: existing.clientSecret };
    const id = `sbx_pi_${token(18)}`;
    const now = Date.now();
    try {
      await this.db('sandboxPaymentIntents').insert({
        id,
        clientSecret: `${id}_secret_${token(24)}`,
        orderId: input.orderId,
        amountPence: input.amountPence,
        currency: input.currency,
        status: 'requires_payment_method',
        idempotencyKey: input.idempotencyKey,
        attempts: 0,
        createdAt: now,
        updatedAt: now,
      });
    } catch (err) {
      // The same key was used concurrently: answer with the intent that won, as Stripe does.
      if (!isUniqueViolation(err)) throw err;
      return this.createIntent(input);
    }
    const row = (await this.byId(id))!;
    return { id: row.id, clientSecret: row.clientSecret };
  }

  async retrieveIntent(id: string) {
    const row = await this.byId(id);
    if (!row) throw new GatewayError(`No such sandbox payment intent: ${id}`);
    return stateOf(row);
  }

  async cancelIntent(id: string) {
    await this.db('sandboxPaymentIntents')
      .where({ id, status: 'requires_payment_method' })
      .update({ status: 'canceled', updatedAt: Date.now() });
  }

  async refund(input: Parameters<PaymentGateway['refund']>[0]): Promise<{ id: string }> {
    const existing = await this.db('sandboxRefunds').where({ idempotencyKey: input.idempotencyKey }).first();
    if (existing) return { id: existing.id as string };
    const intent = await this.byId(input.intentId);
    if (intent?.status !== 'succeeded') {
      throw new GatewayError(`Sandbox payment ${input.intentId} has not been paid, so cannot be refunded`);
    }
    const refunded = (await this.db('sandboxRefunds')
      .where({ paymentIntentId: intent.id })
      .sum({ total: 'amountPence' })
      .first()) as { total: number | null } | undefined;
    if (Number(refunded?.total ?? 0) + input.amountPence > intent.amountPence) {
      throw new GatewayError(`Refund of ${input.amountPence} exceeds what is left of ${intent.id}`);
    }
    const id = `sbx_re_${token(18)}`;
    try {
      await this.db('sandboxRefunds').insert({
        id,
        paymentIntentId: intent.id,
        amountPence: input.amountPence,
        reason: input.reason.slice(0, 255),
        idempotencyKey: input.idempotencyKey,
        createdAt: Date.now(),
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      return this.refund(input);
    }
    return { id };
  }

  /** The intent a client secret belongs to (compared in constant time), or undefined. */
  async findByClientSecret(clientSecret: string): Promise<SandboxIntentRow | undefined> {
    const id = clientSecret.split('_secret_')[0];
    if (!id) return undefined;
    const row = await this.byId(id);
    if (!row) return undefined;
    const a = Buffer.from(row.clientSecret);
    const b = Buffer.from(clientSecret);
    return a.length === b.length && timingSafeEqual(a, b) ? row : undefined;
  }

  /** A declined attempt: the intent stays open for another card, as Stripe's does. */
  async recordDecline(id: string, code: string, message: string) {
    await this.db('sandboxPaymentIntents')
      .where({ id, status: 'requires_payment_method' })
      .update({
        lastErrorCode: code,
        lastErrorMessage: message,
        attempts: this.db.raw('?? + 1', ['attempts']),
        updatedAt: Date.now(),
      });
  }

  /** Takes the money: true for the one call that moved the intent to succeeded. */
  async capture(id: string): Promise<boolean> {
    const changed = await this.db('sandboxPaymentIntents')
      .where({ id, status: 'requires_payment_method' })
      .update({
        status: 'succeeded',
        lastErrorCode: null,
        lastErrorMessage: null,
        attempts: this.db.raw('?? + 1', ['attempts']),
        updatedAt: Date.now(),
      });
    return changed === 1;
  }
}
