import { describe, expect, it } from 'vitest';
import { sharedReads } from '../../api/catalogue/sharedReads';

/** A read whose answers the test releases one by one, counting the reads started. */
function controlledRead() {
  const pending: Array<(value: string) => void> = [];
  let started = 0;
  const read = (key: number) =>
    new Promise<string>((resolve) => {
      started += 1;
      const n = started;
      pending.push(() => resolve(`${key}:read ${n}`));
    });
  return { read, started: () => started, finishNext: () => pending.shift()!('') };
}

describe('sharedReads', () => {
  it('many callers during one read share one more read, started after that read, not the one in progress', async () => {
    const source = controlledRead();
    const entries = sharedReads(source.read);
    const first = entries(7);
    const late = Array.from({ length: 50 }, () => entries(7));
    expect(source.started()).toBe(1);
    source.finishNext();
    expect(await first).toBe('7:read 1');
    await Promise.resolve();
    await Promise.resolve();
    expect(source.started()).toBe(2);
    source.finishNext();
    expect(new Set(await Promise.all(late))).toEqual(new Set(['7:read 2']));
  });

  it('keys are independent, and an idle key reads at once', async () => {
    const source = controlledRead();
    const entries = sharedReads(source.read);
    const a = entries(1);
    const b = entries(2);
    expect(source.started()).toBe(2);
    source.finishNext();
    source.finishNext();
    expect([await a, await b]).toEqual(['1:read 1', '2:read 2']);
    const again = entries(1);
    expect(source.started()).toBe(3);
    source.finishNext();
    expect(await again).toBe('1:read 3');
  });

  it('a failed read fails its callers only; the waiting callers get their own read', async () => {
    let calls = 0;
    let release!: () => void;
    const entries = sharedReads(async () => {
      calls += 1;
      if (calls === 1) {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        throw new Error('database went away');
      }
      return 'fresh';
    });
    const first = entries(1);
    const waiting = entries(1);
    release();
    await expect(first).rejects.toThrow('database went away');
    expect(await waiting).toBe('fresh');
  });
});
