import { parseArgs } from 'node:util';

export type Journey = 'hot' | 'lucky' | 'abandon';
export const JOURNEYS: readonly Journey[] = ['hot', 'lucky', 'abandon'];

export interface SwarmOptions {
  base: string;
  competitionId: number;
  browsers: number;
  pagesPerBrowser: number;
  durationSeconds: number;
  /** Journey -> weight (percent, or any relative weights). */
  mix: Record<Journey, number>;
  report: string | undefined;
  json: string | undefined;
  /** Lightweight HTTP + Socket.IO clients instead of browsers. */
  protocol: boolean;
  /** How many clients in --protocol mode. */
  clients: number;
  /** Admin sign-in to learn the skill answers from GET /api/admin/competitions/:id; null = answer '365'. */
  admin: { username: string; password: string } | null;
  cardNumber: string;
  /** The share of the site's per-address limits the swarm may use (others may share the address). */
  limitShare: number;
  /** --launch: a new queued launch (competition made through the admin API) instead of --competition. */
  launch: boolean;
  /** --admit-rate: the launch queue's admissions per second, set through the admin API; null = the site's. */
  admitPerSecond: number | null;
}

export const USAGE = `npm run swarm -- --base http://localhost:3000 --competition <id> [options]
       npm run swarm -- --base http://localhost:3000 --launch --clients 2000 [options]

  --browsers N            Chromium processes (default 2)
  --pages-per-browser N   customers (isolated contexts) per browser (default 2)
  --duration S            seconds of buying (default 60)
  --mix hot=40,lucky=40,abandon=20
                          hot: everyone fights over the same few lowest free numbers;
                          lucky: a Lucky Dip; abandon: hold, then leave the cart to expire
  --report FILE.html      self-contained HTML report with charts
  --json FILE.json        the same figures as JSON
  --protocol              HTTP + Socket.IO clients instead of browsers (for scale)
  --clients N             clients in --protocol mode (default 200)
  --admin USER:PASSWORD   admin sign-in to learn each skill question's answer (default admin:admin123);
                          --admin none answers '365', the default question's answer
  --card NUMBER           sandbox test card (default 4242 4242 4242 4242)
  --limit-share F         share of the site's per-address limits to use, 0-1 (default 0.9)
  --launch                a queued launch instead of --competition: makes a competition with a launch
                          queue (admin API), --clients protocol clients join before the opening, and
                          each holds a Lucky Dip and pays once let in; --duration is how long after the
                          opening they may take (docs/swarm.md#a-queued-launch)
  --admit-rate N          with --launch: visitors let in per second (default: LAUNCH_ADMIT_PER_SECOND)`;

export class UsageError extends Error {}

const positiveInt = (name: string, raw: string | undefined, fallback: number): number => {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${name} must be a whole number of 1 or more`);
  return n;
};

export function parseMix(raw: string): Record<Journey, number> {
  const mix: Record<Journey, number> = { hot: 0, lucky: 0, abandon: 0 };
  for (const part of raw.split(',')) {
    const [name, weight] = part.split('=');
    if (!JOURNEYS.includes(name as Journey) || !/^\d+$/.test(weight ?? ''))
      throw new UsageError(`--mix: '${part}' is not journey=weight (journeys: ${JOURNEYS.join(', ')})`);
    mix[name as Journey] = Number(weight);
  }
  if (mix.hot + mix.lucky + mix.abandon === 0) throw new UsageError('--mix: the weights add up to 0');
  return mix;
}

/** Deals journeys out to `count` customers in proportion to the mix (largest remainders). */
export function dealJourneys(mix: Record<Journey, number>, count: number): Journey[] {
  const total = mix.hot + mix.lucky + mix.abandon;
  const exact = JOURNEYS.map((j) => ({ j, share: (mix[j] / total) * count }));
  const dealt = exact.map(({ j, share }) => ({ j, n: Math.floor(share), rest: share - Math.floor(share) }));
  let left = count - dealt.reduce((sum, d) => sum + d.n, 0);
  for (const d of [...dealt].sort((a, b) => b.rest - a.rest)) {
    if (left-- <= 0) break;
    d.n++;
  }
  // Interleaved (hot, lucky, abandon, hot, ...), so that each browser gets a share of every journey.
  const groups = dealt.map(({ j, n }) => Array.from({ length: n }, () => j));
  const out: Journey[] = [];
  while (out.length < count) for (const group of groups) if (group.length) out.push(group.shift()!);
  return out;
}

export function parseOptions(argv: string[]): SwarmOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      base: { type: 'string' },
      competition: { type: 'string' },
      browsers: { type: 'string' },
      'pages-per-browser': { type: 'string' },
      duration: { type: 'string' },
      mix: { type: 'string' },
      report: { type: 'string' },
      json: { type: 'string' },
      protocol: { type: 'boolean' },
      clients: { type: 'string' },
      admin: { type: 'string' },
      card: { type: 'string' },
      'limit-share': { type: 'string' },
      launch: { type: 'boolean' },
      'admit-rate': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) throw new UsageError(USAGE);
  if (!values.base) throw new UsageError(`--base is required\n\n${USAGE}`);
  let base: URL;
  try {
    base = new URL(values.base);
  } catch {
    throw new UsageError(`--base '${values.base}' is not a URL`);
  }
  const admin = values.admin ?? 'admin:admin123';
  const colon = admin.indexOf(':');
  if (admin !== 'none' && colon < 1) throw new UsageError("--admin must be USER:PASSWORD or 'none'");
  const limitShare = values['limit-share'] === undefined ? 0.9 : Number(values['limit-share']);
  if (!(limitShare > 0 && limitShare <= 1))
    throw new UsageError('--limit-share must be above 0 and at most 1');
  const launch = values.launch ?? false;
  if (launch && admin === 'none')
    throw new UsageError('--launch makes its competition through the admin API: it needs --admin');
  if (launch && values.competition !== undefined)
    throw new UsageError('--launch makes its own competition: leave --competition out');
  return {
    base: base.origin,
    competitionId: launch ? 0 : positiveInt('competition', values.competition ?? '', 0),
    browsers: positiveInt('browsers', values.browsers, 2),
    pagesPerBrowser: positiveInt('pages-per-browser', values['pages-per-browser'], 2),
    durationSeconds: positiveInt('duration', values.duration, 60),
    mix: parseMix(values.mix ?? 'hot=40,lucky=40,abandon=20'),
    report: values.report,
    json: values.json,
    protocol: (values.protocol ?? false) || launch,
    clients: positiveInt('clients', values.clients, 200),
    admin: admin === 'none' ? null : { username: admin.slice(0, colon), password: admin.slice(colon + 1) },
    cardNumber: values.card ?? '4242 4242 4242 4242',
    limitShare,
    launch,
    admitPerSecond:
      values['admit-rate'] === undefined ? null : positiveInt('admit-rate', values['admit-rate'], 0),
  };
}
