import { describe, expect, it } from 'vitest';
import {
  fairness,
  percentile,
  probeViolations,
  type QueuePlace,
  type QueueTrace,
  ranks,
  serverAdmittedAt,
  spearman,
  stalenessSamples,
  updateGaps,
} from '../../scripts/swarm/launchFigures';
import { parseOptions, UsageError } from '../../scripts/swarm/options';

// The launch scenario's figures (docs/performance.md#launch-under-the-rush), shared by the bench
// and the swarm: what their fairness, staleness and percentiles mean.

const trace = (position: number, o: Partial<QueueTrace> = {}): QueueTrace => ({
  position,
  joinedAt: position,
  joinedBeforeOpening: true,
  updates: [],
  admittedSeenAt: null,
  ...o,
});

describe('rank correlation (Spearman)', () => {
  it('ranks ties by the average of their places', () => {
    expect(ranks([30, 10, 20, 20])).toEqual([4, 1, 2.5, 2.5]);
    expect(ranks([])).toEqual([]);
  });

  it('is 1 for the same order, -1 for the reverse, and the textbook value in between', () => {
    expect(spearman([1, 2, 3, 4], [10, 20, 30, 40])).toBeCloseTo(1, 12);
    expect(spearman([1, 2, 3, 4], [9, 7, 5, 1])).toBeCloseTo(-1, 12);
    // 1 - 6 * sum(d^2) / (n (n^2 - 1)) = 1 - 6 * 4 / 120
    expect(spearman([1, 2, 3, 4, 5], [2, 1, 4, 3, 5])).toBeCloseTo(0.8, 12);
  });

  it('correlates the ranks, ties averaged, not the values', () => {
    expect(spearman([1, 2, 2, 3], [1, 2, 3, 4])).toBeCloseTo(4.5 / Math.sqrt(22.5), 12);
    expect(spearman([1, 2, 3, 1000], [1, 2, 3, 4])).toBeCloseTo(1, 12);
  });

  it('is undefined (NaN) without two pairs or without spread, and refuses lists of different lengths', () => {
    expect(spearman([1], [1])).toBeNaN();
    expect(spearman([1, 1, 1], [1, 2, 3])).toBeNaN();
    expect(() => spearman([1, 2], [1])).toThrow(/differ in length/);
  });
});

describe('nearest-rank percentile', () => {
  it('takes the value at rank ceil(p * n), whatever the input order', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(values, 0.99)).toBe(99);
    expect(percentile(values, 0.5)).toBe(50);
    expect(percentile(values, 1)).toBe(100);
    expect(percentile([7, 3], 0.99)).toBe(7);
    expect(percentile([5], 0.01)).toBe(5);
    expect(percentile([], 0.99)).toBeNull();
  });
});

describe('the admission time behind queue:admitted', () => {
  it("is expiresAt less the admission window, a whole number of minutes read from the event's arrival", () => {
    const admitted = 1_700_000_000_000;
    expect(serverAdmittedAt(admitted + 10 * 60_000, admitted + 180)).toBe(admitted);
    expect(serverAdmittedAt(admitted + 60_000, admitted + 20_000)).toBe(admitted);
  });
});

describe('staleness of the queue positions shown', () => {
  // Places 1-3 let in at 1,000, 2,000 and 3,000 ms; place 4 never.
  const places: QueuePlace[] = [
    { position: 1, admittedAt: 1000 },
    { position: 2, admittedAt: 2000 },
    { position: 3, admittedAt: 3000 },
    { position: 4, admittedAt: null },
  ];

  it('is 0 while the number shown is still the number ahead when it is replaced', () => {
    const t = trace(3, {
      updates: [
        { at: 1050, ahead: 1 },
        { at: 1900, ahead: 1 },
      ],
      admittedSeenAt: 3100,
    });
    // The second is replaced by the admission at 3,100: wrong since place 2 went in at 2,000.
    expect(stalenessSamples([t], places, 5000)).toEqual([0, 1100]);
  });

  it('counts from the admission that made the number wrong to the moment it is replaced', () => {
    const t = trace(4, {
      updates: [
        { at: 1100, ahead: 2 },
        { at: 2500, ahead: 1 },
      ],
    });
    // 2 ahead became wrong when place 2 went in (2,000), replaced at 2,500; 1 ahead became wrong
    // at 3,000 and was still shown at the end (3,500).
    expect(stalenessSamples([t], places, 3500)).toEqual([500, 500]);
  });

  it('counts a number below the truth from its arrival, and takes one sample per position shown', () => {
    const t = trace(4, { updates: [{ at: 1500, ahead: 0 }] });
    expect(stalenessSamples([t], places, 1800)).toEqual([300]);
    expect(stalenessSamples([trace(2)], places, 1800)).toEqual([]);
  });

  it('gives the gaps between the queue events each visitor saw, the admission included', () => {
    const t = trace(3, {
      updates: [
        { at: 1000, ahead: 2 },
        { at: 2200, ahead: 1 },
      ],
      admittedSeenAt: 5200,
    });
    expect(updateGaps([t, trace(1)])).toEqual([1200, 3000]);
  });
});

describe('fairness', () => {
  const admittedIn = (n: number): QueuePlace[] =>
    Array.from({ length: n }, (_, i) => ({ position: i + 1, admittedAt: 1000 + 100 * Math.floor(i / 2) }));

  it('is 1 when the first to join are the first let in, and -1 for the reverse', () => {
    const places = admittedIn(6);
    const joinedInOrder = places.map((p) => trace(p.position, { joinedAt: p.position * 10 }));
    expect(fairness(joinedInOrder, places)).toBeCloseTo(1, 12);
    const reverse = places.map((p) => trace(p.position, { joinedAt: -p.position }));
    expect(fairness(reverse, places)).toBeCloseTo(-1, 12);
  });

  it('counts only those who joined before the opening and were let in', () => {
    const places = admittedIn(5).map((p) => (p.position === 5 ? { ...p, admittedAt: null } : p));
    const traces = [
      trace(1, { joinedAt: 1 }),
      trace(2, { joinedAt: 2 }),
      trace(3, { joinedAt: 3 }),
      // A late joiner at the back and one never let in would turn the order round if counted.
      trace(4, { joinedAt: -100, joinedBeforeOpening: false }),
      trace(5, { joinedAt: -200 }),
    ];
    expect(fairness(traces, places)).toBeCloseTo(1, 12);
  });

  it('orders admission by the time let in, then position', () => {
    // Position 2 went in before position 1 (out of order): it counts first.
    const places: QueuePlace[] = [
      { position: 1, admittedAt: 2000 },
      { position: 2, admittedAt: 1000 },
      { position: 3, admittedAt: 3000 },
    ];
    const traces = [trace(1, { joinedAt: 2 }), trace(2, { joinedAt: 1 }), trace(3, { joinedAt: 3 })];
    expect(fairness(traces, places)).toBeCloseTo(1, 12);
  });
});

describe('holds tried while waiting', () => {
  it('must be refused with 403 queue_required; a 201 (let in meanwhile) is judged by the admission checks', () => {
    const refused = { probe: { status: 403, code: 'queue_required' } };
    expect(probeViolations([refused, { probe: null }, { probe: { status: 201, code: null } }])).toEqual([]);
    expect(
      probeViolations([
        refused,
        { probe: { status: 409, code: 'not_open_yet' } },
        { probe: { status: 403, code: 'x' } },
      ]),
    ).toEqual(['2 holds while waiting were not refused with 403 queue_required (409)']);
  });
});

describe('swarm --launch options', () => {
  it('makes its own competition with protocol clients, and takes an admission rate', () => {
    const o = parseOptions(['--base', 'http://x', '--launch', '--clients', '2000', '--admit-rate', '100']);
    expect(o).toMatchObject({
      launch: true,
      protocol: true,
      competitionId: 0,
      clients: 2000,
      admitPerSecond: 100,
    });
    expect(parseOptions(['--base', 'http://x', '--competition', '3'])).toMatchObject({
      launch: false,
      admitPerSecond: null,
    });
  });

  it('refuses a competition of its own choosing, or no admin to make one', () => {
    expect(() => parseOptions(['--base', 'http://x', '--launch', '--competition', '3'])).toThrow(UsageError);
    expect(() => parseOptions(['--base', 'http://x', '--launch', '--admin', 'none'])).toThrow(
      /needs --admin/,
    );
    expect(() => parseOptions(['--base', 'http://x', '--launch', '--admit-rate', '0'])).toThrow(UsageError);
  });
});
