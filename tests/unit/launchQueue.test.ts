import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { etaText, queueCommitment, queueKey, shuffledOrder } from '../../contract/launchQueue';

// The launch queue's published rule (docs/draws.md#launch-queue): anyone recomputes the order from
// the revealed seed and the entry ids, with nothing but SHA-256.

const SEED = 'ab'.repeat(32);

describe('the launch queue rule', () => {
  it('commits to the seed bytes and keys each entry by SHA-256 of "<seed>:<id>"', async () => {
    expect(await queueCommitment(SEED)).toBe(
      createHash('sha256').update(Buffer.from(SEED, 'hex')).digest('hex'),
    );
    expect(await queueKey(SEED, 42)).toBe(createHash('sha256').update(`${SEED}:42`).digest('hex'));
    await expect(queueCommitment('xyz')).rejects.toThrow('64 lowercase hex');
  });

  it('orders by the keys ascending, whatever order the ids come in', async () => {
    const ids = [5, 1, 9, 3, 7];
    const keyed = ids.map((id) => ({ id, key: createHash('sha256').update(`${SEED}:${id}`).digest('hex') }));
    const expected = keyed.sort((a, b) => a.key.localeCompare(b.key)).map((k) => k.id);
    expect(await shuffledOrder(SEED, ids)).toEqual(expected);
    expect(await shuffledOrder(SEED, [...ids].reverse())).toEqual(expected);
    expect(await shuffledOrder('cd'.repeat(32), ids)).not.toEqual(expected);
  });

  it('says the wait in words', () => {
    expect(etaText(0)).toBe('about a second');
    expect(etaText(40)).toBe('about 40 seconds');
    expect(etaText(60)).toBe('about 1 minute');
    expect(etaText(61)).toBe('about 2 minutes');
  });
});
