import { describe, expect, it } from 'vitest';
import { dealJourneys, parseOptions, UsageError } from '../../scripts/swarm/options';
import { EvenPace, SlidingWindow } from '../../scripts/swarm/pacer';
import { answerTo, RefusedError, refuseRealPayments } from '../../scripts/swarm/preflight';
import { percentiles, Recorder } from '../../scripts/swarm/recorder';

// The swarm's own rules (scripts/swarm): what a tester relies on when reading its figures.

describe('swarm payments check', () => {
  const config = (provider: 'stripe' | 'sandbox', testMode: boolean) => ({
    siteName: 'Westcountry Prizes',
    supportEmail: 'support@example.co.uk',
    promoter: { name: null, companyNumber: null, address: null, phone: null, email: null },
    charities: [],
    payments: { provider, publishableKey: provider === 'stripe' ? 'pk_x' : null, testMode },
  });

  it('runs against the sandbox gateway', () => {
    expect(() => refuseRealPayments(config('sandbox', true))).not.toThrow();
  });

  it('refuses live Stripe and says why', () => {
    expect(() => refuseRealPayments(config('stripe', false))).toThrow(RefusedError);
    expect(() => refuseRealPayments(config('stripe', false))).toThrow(/live Stripe payments/);
  });

  it("refuses Stripe's test mode too, naming the sandbox it needs", () => {
    expect(() => refuseRealPayments(config('stripe', true))).toThrow(/without STRIPE_\* keys/);
  });
});

describe('swarm options', () => {
  it('reads the issue example, with the documented defaults', () => {
    const o = parseOptions([
      ...[
        '--base',
        'http://localhost:3000/',
        '--competition',
        '7',
        '--browsers',
        '8',
        '--pages-per-browser',
        '4',
      ],
      ...[
        '--duration',
        '60',
        '--mix',
        'hot=40,lucky=40,abandon=20',
        '--report',
        'r.html',
        '--json',
        's.json',
      ],
    ]);
    expect(o).toMatchObject({
      base: 'http://localhost:3000',
      competitionId: 7,
      browsers: 8,
      pagesPerBrowser: 4,
      durationSeconds: 60,
      mix: { hot: 40, lucky: 40, abandon: 20 },
      protocol: false,
      admin: { username: 'admin', password: 'admin123' },
      cardNumber: '4242 4242 4242 4242',
    });
    expect(parseOptions(['--base', 'http://x', '--competition', '1', '--admin', 'none']).admin).toBeNull();
  });

  it('refuses a bad mix or a missing competition with a clear message', () => {
    expect(() => parseOptions(['--base', 'http://x', '--competition', '1', '--mix', 'hot=1,cold=2'])).toThrow(
      "--mix: 'cold=2' is not journey=weight",
    );
    expect(() => parseOptions(['--base', 'http://x'])).toThrow(UsageError);
  });

  it('deals the journeys in proportion, interleaved across customers', () => {
    expect(dealJourneys({ hot: 40, lucky: 40, abandon: 20 }, 4)).toEqual(['hot', 'lucky', 'abandon', 'hot']);
    const many = dealJourneys({ hot: 40, lucky: 40, abandon: 20 }, 32);
    expect(many.filter((j) => j === 'abandon')).toHaveLength(6);
    expect(many.filter((j) => j === 'hot')).toHaveLength(13);
  });
});

describe('swarm figures', () => {
  it('takes nearest-rank percentiles', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentiles(values)).toEqual({ count: 100, p50: 50, p95: 95, p99: 99 });
    expect(percentiles([])).toEqual({ count: 0, p50: null, p95: null, p99: null });
  });

  it("times staleness from the buyer's action to the watcher's first matching change after it", () => {
    const r = new Recorder();
    r.watched(7, 'reserved', 900); // before the click: someone else's, not this hold
    r.watched(7, 'available', 950);
    r.watched(7, 'reserved', 1120);
    r.watched(7, 'sold', 2300);
    r.action('hold', [7], 1000);
    r.action('purchase', [7], 2000);
    r.action('hold', [8], 1000); // never seen
    r.action('hold', [5000], 1000); // outside what the watcher could see
    const s = r.staleness((n) => n < 1000);
    expect(s.byKind.hold).toMatchObject({ count: 1, p50: 120 });
    expect(s.byKind.purchase).toMatchObject({ count: 1, p50: 300 });
    expect(s.missed).toBe(1);
    expect(r.numbersBought).toBe(1);
  });

  it('answers the admin-given answer for a known question, else the default', () => {
    const answers = new Map([['How many days are in a week?', '7']]);
    expect(answerTo(answers, ' How many days are in a week? ')).toBe('7');
    expect(answerTo(answers, 'How many days are in a leap year?')).toBe('365');
  });
});

describe('swarm hold pacing', () => {
  it('lets the limit through per minute, then waits for the oldest hold to leave the window', () => {
    const w = new SlidingWindow(2);
    expect(w.waitFor(0)).toBe(0);
    w.take(0);
    w.take(10_000);
    expect(w.waitFor(20_000)).toBe(40_000);
    expect(w.waitFor(60_000)).toBe(0);
  });

  it('spreads the shared address budget evenly over the minute', () => {
    const pace = new EvenPace(120);
    expect(pace.waitFor(0)).toBe(0);
    pace.take(0);
    expect(pace.waitFor(100)).toBe(400);
    pace.take(500);
    expect(pace.waitFor(500)).toBe(500);
    expect(pace.waitFor(5000)).toBe(0);
  });
});
