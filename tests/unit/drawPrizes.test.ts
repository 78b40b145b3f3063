import { describe, expect, it } from 'vitest';
import { mainPrizesWon } from '../../contract/checkout';
import { computeDraw, computeDrawPrizes } from '../../contract/draw';
import { mainPrizesOf, ordinal } from '../../contract/prizes';

// Several prizes in one draw (docs/draws.md "Several prizes"): vectors computed independently with
// Python's hashlib/hmac, the same as in the docs.
const SEED = '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
const ROUND_1000 = 'fe290beca10872ef2fb164d2aa4442de4566183ec51c56ff3cd603d930e54fdd';
const NUMBERS = [100, 7, 55, 3, 12];

describe('computeDrawPrizes', () => {
  it('draws three prizes in order from one HMAC stream, without replacement (docs vector)', async () => {
    expect(await computeDrawPrizes(SEED, NUMBERS, 3, ROUND_1000)).toEqual({
      entriesHash: 'bdc2beeff308b6dc6313629a4e5f01399b6eafcbbc1e5fc5eaaf72710170d8e0',
      entryCount: 5,
      prizes: [
        { position: 1, index: 1, winningNumber: 7, counter: 0 },
        { position: 2, index: 0, winningNumber: 3, counter: 1 },
        { position: 3, index: 0, winningNumber: 12, counter: 2 },
      ],
    });
  });

  it('numbers 1..1000: 160, 519, 762', async () => {
    const all = Array.from({ length: 1000 }, (_, i) => i + 1);
    const { prizes } = await computeDrawPrizes(SEED, all, 3, ROUND_1000);
    expect(prizes.map((p) => [p.index, p.winningNumber])).toEqual([
      [159, 160],
      [517, 519],
      [759, 762],
    ]);
  });

  it('keeps the 1st prize bit-for-bit the single-prize result (version 1 and 2)', async () => {
    for (const randomness of [ROUND_1000, undefined]) {
      const single = await computeDraw(SEED, NUMBERS, randomness);
      const { prizes } = await computeDrawPrizes(SEED, NUMBERS, 3, randomness);
      expect(prizes[0]).toMatchObject({
        index: single.index,
        winningNumber: single.winningNumber,
        counter: single.counter,
      });
    }
    expect((await computeDrawPrizes(SEED, NUMBERS, 3)).prizes.map((p) => p.winningNumber)).toEqual([
      3, 55, 12,
    ]);
  });

  it('never picks a number twice, and stops when the entries run out', async () => {
    const { prizes } = await computeDrawPrizes(SEED, NUMBERS, 8, ROUND_1000);
    expect(prizes.map((p) => p.winningNumber)).toEqual([7, 3, 12, 55, 100]);
    for (let s = 0; s < 20; s++) {
      const seed = s.toString(16).padStart(2, '0').repeat(32);
      const entries = Array.from({ length: 2 + s }, (_, i) => 3 * i + 1);
      const won = (await computeDrawPrizes(seed, entries, 5)).prizes.map((p) => p.winningNumber);
      expect(new Set(won).size).toBe(won.length);
      expect(won.every((n) => entries.includes(n))).toBe(true);
    }
  });

  it('refuses a prize count below 1', async () => {
    await expect(computeDrawPrizes(SEED, NUMBERS, 0)).rejects.toThrow(/prizeCount/);
  });
});

describe('prize lists', () => {
  it('a competition without a list has one prize, its title', () => {
    expect(mainPrizesOf({ title: 'Hot tub', mainPrizes: null })).toEqual([
      { title: 'Hot tub', description: null, cashValuePence: null, cashAlternativePence: null, image: null },
    ]);
  });

  it('names positions 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 22nd', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
    ]);
  });

  it('My Entries: the prizes an entry won, or the single winning number of an older draw', () => {
    const drawnAt = '2026-11-23T20:00:00.000Z';
    const prizes = [
      { position: 1, title: 'Car', winningNumber: 7 },
      { position: 2, title: 'Cash', winningNumber: 3 },
    ];
    expect(mainPrizesWon([3, 9], { winningNumber: 7, drawnAt, prizes })).toEqual([prizes[1]]);
    expect(mainPrizesWon([9], { winningNumber: 7, drawnAt, prizes })).toEqual([]);
    expect(mainPrizesWon([7], { winningNumber: 7, drawnAt })).toHaveLength(1);
  });
});
