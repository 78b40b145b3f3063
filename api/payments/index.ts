import type { Knex } from 'knex';
import type { Config } from '../platform/config';
import type { PaymentGateway } from './gateway';
import { SandboxGateway } from './sandbox';
import { StripeGateway } from './stripe';

export type { PaymentGateway } from './gateway';
export { SandboxGateway } from './sandbox';
export { StripeGateway } from './stripe';

/** Stripe when STRIPE_SECRET_KEY is set (config.ts checks the rest), else the offline sandbox. */
export function createGateway(config: Config, db: Knex): PaymentGateway {
  if (config.payments.provider === 'stripe') {
    return new StripeGateway({
      secretKey: config.stripe.secretKey!,
      publishableKey: config.stripe.publishableKey!,
      webhookSecret: config.stripe.webhookSecret,
      apiUrl: config.stripe.apiUrl,
    });
  }
  return new SandboxGateway(db);
}
