// What the swarm checks before it starts: that the site takes only test payments, that its limits
// let this many customers in (or which setting to relax), the competition, and the skill answers.
import type { PublicCompetition } from '../../contract/competitions';
import type { LimitsSummary, SiteConfig } from '../../contract/site';
import { TestClient } from '../../tests/support/httpClient';
import type { SwarmOptions } from './options';

/** The answer of the default skill question, used when no admin can tell the real one. */
export const DEFAULT_ANSWER = '365';

export class RefusedError extends Error {}

export interface Preflight {
  competition: PublicCompetition;
  /** null when the site's request limits are off. */
  holdLimits: { perSession: number; perAddress: number } | null;
  reservationSeconds: number | null;
  /** Question text -> its answer, as the admin API tells them. */
  answers: Map<string, string>;
  warnings: string[];
}

export async function preflight(options: SwarmOptions, customers: number): Promise<Preflight> {
  const client = new TestClient(options.base);
  const warnings: string[] = [];
  const config = await client.get('/api/site-config').catch((err: Error) => {
    throw new RefusedError(`Cannot reach ${options.base}: ${err.message}`);
  });
  if (config.status !== 200)
    throw new RefusedError(`${options.base}/api/site-config answered ${config.status}`);
  refuseRealPayments(config.body as SiteConfig);

  const found = await client.get(`/api/competitions/${options.competitionId}`);
  if (found.status !== 200)
    throw new RefusedError(
      `Competition ${options.competitionId} not found (${found.status}) on ${options.base}`,
    );
  const competition = found.body as PublicCompetition;
  if (competition.status !== 'active')
    throw new RefusedError(
      `Competition ${competition.id} '${competition.title}' is ${competition.status}, not on sale`,
    );

  const limitsRes = await client.get('/api/limits');
  let limits: LimitsSummary | null = null;
  if (limitsRes.status === 200) limits = limitsRes.body as LimitsSummary;
  else
    warnings.push(
      'The site does not publish its limits (GET /api/limits); holds are paced to the defaults (30 per session, 120 per address a minute).',
    );
  const registrations = limits?.registrationsPerAddress;
  if (limits?.requestLimits !== false && registrations && customers > registrations.count) {
    throw new RefusedError(
      `This swarm registers ${customers} accounts from one address, but the site allows ${registrations.count} ` +
        `every ${registrations.windowSeconds} s. On a test site, start it with REGISTRATIONS_PER_ADDRESS=${customers * 10} ` +
        '(or RATE_LIMITS=off), or run fewer customers.',
    );
  }
  const holdLimits =
    limits?.requestLimits === false
      ? null
      : {
          perSession: Math.max(1, Math.floor((limits?.holdsPerMinute.perSession ?? 30) * options.limitShare)),
          perAddress: Math.max(
            1,
            Math.floor((limits?.holdsPerMinute.perAddress ?? 120) * options.limitShare),
          ),
        };
  if (holdLimits && holdLimits.perAddress < customers)
    warnings.push(
      `The site allows ${limits?.holdsPerMinute.perAddress ?? 120} holds a minute from one address, fewer than ` +
        `${customers} customers need: holds will wait their turn. On a test site set HOLD_RATE_PER_ADDRESS higher or RATE_LIMITS=off.`,
    );

  const answers = options.admin ? await learnAnswers(options, warnings) : new Map<string, string>();
  return {
    competition,
    holdLimits,
    reservationSeconds: limits?.reservationSeconds ?? null,
    answers,
    warnings,
  };
}

/** Live Stripe would take real money from the test cards (or refuse them): never run against it. */
export function refuseRealPayments(config: SiteConfig): void {
  const { provider, testMode } = config.payments;
  if (provider === 'sandbox') return;
  if (!testMode)
    throw new RefusedError(
      'This site takes live Stripe payments (its publishable key is not pk_test_): the swarm pays with test cards ' +
        'and must never run against real payments. Run it against a test site: without STRIPE_* keys (the sandbox gateway) .',
    );
  throw new RefusedError(
    "This site takes payments through Stripe's Payment Element (a Stripe test key): the swarm pays through the sandbox's " +
      'test-card form. Run the test site without STRIPE_* keys, so that it uses the sandbox gateway.',
  );
}

/**
 * Signs in as the admin and reads the competition's skill question(s) with their answers from
 * GET /api/admin/competitions/:id. Any object there with `question` and `answer` counts, so a
 * competition with a pool of questions is followed as well as one with a single question.
 */
async function learnAnswers(options: SwarmOptions, warnings: string[]): Promise<Map<string, string>> {
  const answers = new Map<string, string>();
  const admin = new TestClient(options.base);
  await admin.fetchCsrfToken();
  const login = await admin.post('/api/login', options.admin);
  if (login.status !== 200 || login.body?.twoFactorRequired) {
    warnings.push(
      `Admin sign-in as '${options.admin!.username}' failed (${login.status}${login.body?.twoFactorRequired ? ', needs a two-factor code' : ''}): answering '${DEFAULT_ANSWER}'.`,
    );
    return answers;
  }
  const res = await admin.get(`/api/admin/competitions/${options.competitionId}`);
  if (res.status !== 200) {
    warnings.push(
      `GET /api/admin/competitions/${options.competitionId} answered ${res.status}: answering '${DEFAULT_ANSWER}'.`,
    );
    return answers;
  }
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') {
      const o = value as Record<string, unknown>;
      if (typeof o.question === 'string' && typeof o.answer === 'string')
        answers.set(o.question.trim(), o.answer);
      Object.values(o).forEach(visit);
    }
  };
  visit(res.body);
  return answers;
}

/** The answer to `question`: the admin's, else the default question's. */
export const answerTo = (answers: Map<string, string>, question: string): string =>
  answers.get(question.trim()) ?? DEFAULT_ANSWER;
