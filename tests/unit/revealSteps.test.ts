import { describe, expect, it } from 'vitest';
import type { DrawBeacon } from '../../contract/beacon';
import type { PublicDraw } from '../../contract/draw';
import { revealSteps, stepVerdict } from '../../web/components/draws/room/revealSteps';
import type { DrawCheck } from '../../web/components/draws/verifyDraw';

const hex = (c: string) => c.repeat(64);
const draw: PublicDraw = {
  version: 2,
  seed: hex('a'),
  entriesHash: hex('b'),
  winningNumber: 17,
  winnerName: 'Jo S.',
  winnerTown: null,
  drawnAt: '2026-11-28T20:00:31.000Z',
  prizes: [
    { position: 1, title: 'Car', winningNumber: 17, winnerName: 'Jo S.' },
    { position: 2, title: 'Bike', winningNumber: 4, winnerName: 'Pat P.' },
  ],
};
const beacon = {
  chain: hex('c'),
  round: 4812345,
  dueAt: '2026-11-28T20:00:31.000Z',
  publicKey: hex('d'),
  randomness: hex('e'),
} as DrawBeacon;
const passed = (key: DrawCheck['key']): DrawCheck => ({
  key,
  label: key,
  status: 'passed',
  published: 'x',
  computed: 'x',
});

describe('the draw room reveal', () => {
  it('reveals the round, the seed, then each prize’s number and winner, 1st first', () => {
    const steps = revealSteps(draw, beacon, hex('f'));
    expect(steps.map((s) => s.heading)).toEqual([
      'drand round 4,812,345',
      'The seed, revealed',
      '1st prize (Car): 17',
      'Won by Jo S.',
      '2nd prize (Bike): 4',
      'Won by Pat P.',
    ]);
    expect(steps[0]!.value).toBe(hex('e'));
    expect(steps[1]!.note).toContain(hex('f'));
  });

  it('a rule 1 draw has no beacon step, and one prize reads as the winning number', () => {
    const steps = revealSteps({ ...draw, version: 1, prizes: undefined }, null, hex('f'));
    expect(steps.map((s) => s.key)).toEqual(['seed', 'number-1', 'winner-1']);
    expect(steps[1]!.heading).toBe('The winning number: 17');
  });

  it('a step passes only when every one of its browser checks passed, and fails on one that did not', () => {
    const [round] = revealSteps(draw, beacon, hex('f'));
    expect(stepVerdict(round!, null)).toBe('checking');
    expect(stepVerdict(round!, [passed('beacon'), passed('round')])).toBe('passed');
    expect(stepVerdict(round!, [passed('beacon'), { ...passed('round'), status: 'failed' }])).toBe('failed');
  });
});
