import { describe, expect, it } from 'vitest';
import { drawCommitment, entriesHash } from '../../contract/draw';
import { competitionBody, emptyCompetitionValues } from '../../web/components/admin/competitionForm';
import { verifyDraw } from '../../web/components/draws/verifyDraw';

// The browser's verifier and the admin form for several main prizes (docs/draws.md "Several prizes").
const SEED = '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
const NUMBERS = [100, 7, 55, 3, 12];

describe('in-browser verification of several prizes', () => {
  const published = async (winners: number[]) => ({
    drawCommitment: await drawCommitment(SEED),
    seed: SEED,
    entriesHash: await entriesHash(NUMBERS),
    winningNumber: winners[0]!,
    version: 1 as const,
    prizeCount: 3,
    prizes: winners.map((winningNumber, i) => ({ position: i + 1, title: `Prize ${i + 1}`, winningNumber })),
  });

  it('checks every prize in order (version-1 vector: 3, 55, 12)', async () => {
    const checks = await verifyDraw(await published([3, 55, 12]), NUMBERS);
    expect(checks.map((c) => [c.key, c.status])).toEqual([
      ['commitment', 'passed'],
      ['entries', 'passed'],
      ['winner', 'passed'],
      ['prize-2', 'passed'],
      ['prize-3', 'passed'],
    ]);
    expect(checks[4]!.label).toContain('3rd prize (Prize 3)');
  });

  it('fails a changed prize, and one published but not drawn', async () => {
    const changed = await verifyDraw(await published([3, 55, 100]), NUMBERS);
    expect(changed.find((c) => c.key === 'prize-3')).toMatchObject({
      status: 'failed',
      published: '100',
      computed: '12',
    });
    const missing = await verifyDraw(await published([3, 55]), NUMBERS);
    expect(missing.find((c) => c.key === 'prize-3')).toMatchObject({
      status: 'failed',
      published: 'not drawn',
    });
  });
});

describe('admin form: main prizes', () => {
  it('sends no list for none, and pence for a listed cash value', () => {
    const values = emptyCompetitionValues(Date.UTC(2026, 0, 1));
    expect(competitionBody(values).prizes).toBeNull();
    const body = competitionBody({
      ...values,
      prizes: [
        {
          title: 'Car',
          description: ' Red ',
          cashValue: '30000.5',
          cashAlternative: '25000',
          image: '/images/competitions/automotive.svg',
        },
        { title: '£50', description: '', cashValue: '', cashAlternative: '', image: null },
      ],
    });
    expect(body.prizes).toEqual([
      {
        title: 'Car',
        description: 'Red',
        cashValuePence: 3_000_050,
        cashAlternativePence: 2_500_000,
        image: '/images/competitions/automotive.svg',
      },
      { title: '£50', description: null, cashValuePence: null, cashAlternativePence: null, image: null },
    ]);
  });
});
