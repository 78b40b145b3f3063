import { describe, expect, it } from 'vitest';
import { verifyDraw } from '../../web/components/draws/verifyDraw';

// The browser's 'Verify this draw' checks, on the worked example of docs/draws.md.

const published = {
  drawCommitment: '4884fdaafea47c29fea7159d0daddd9c085d6200e1359e85bb81736af6b7c837',
  seed: '0123456789abcdef'.repeat(4),
  entriesHash: 'bdc2beeff308b6dc6313629a4e5f01399b6eafcbbc1e5fc5eaaf72710170d8e0',
  winningNumber: 3,
};
const sold = [100, 7, 55, 3, 12];

describe('verifyDraw', () => {
  it('passes every check for an honest draw', async () => {
    const checks = await verifyDraw(published, sold);
    expect(checks.map((c) => [c.key, c.status])).toEqual([
      ['commitment', 'passed'],
      ['entries', 'passed'],
      ['winner', 'passed'],
    ]);
  });

  it('fails the check that was tampered with, and only that one', async () => {
    const wrongWinner = await verifyDraw({ ...published, winningNumber: 7 }, sold);
    expect(wrongWinner.map((c) => c.status)).toEqual(['passed', 'passed', 'failed']);
    const extraEntry = await verifyDraw(published, [...sold, 101]);
    expect(extraEntry.find((c) => c.key === 'entries')?.status).toBe('failed');
    const otherSeed = await verifyDraw({ ...published, seed: 'ab'.repeat(32) }, sold);
    expect(otherSeed[0]?.status).toBe('failed');
  });

  it('reports a malformed seed as failed instead of throwing', async () => {
    const checks = await verifyDraw({ ...published, seed: 'not hex' }, sold);
    expect(checks.map((c) => c.status)).toEqual(['failed', 'passed', 'failed']);
    expect(checks[0]?.computed).toBe('not a valid seed');
  });
});
