import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../api/accounts/passwords';
import { publicOwnerName } from '../../api/catalogue/presenter';
import { EventBus } from '../../api/platform/events';
import { pickAvailable, pickFree, type TakenReader } from '../../api/tickets/numberPicker';
import { engineOf, knexConfig } from '../../knexfile';
import { pickDistinct, seededRandom } from '../../server/seeds/random';
import { remainingUntil } from '../../web/components/competitions/useCountdown';

describe('publicOwnerName', () => {
  const base = { firstName: null, lastName: null, username: null, deletedAt: null };
  it('shows first name and last initial', () => {
    expect(publicOwnerName({ ...base, firstName: 'Sarah', lastName: 'trelawny' })).toBe('Sarah T.');
    expect(publicOwnerName({ ...base, firstName: 'Cher', lastName: '' })).toBe('Cher');
  });
  it('falls back to the username, never an email address', () => {
    expect(publicOwnerName({ ...base, username: 'kernow99' })).toBe('kernow99');
    expect(publicOwnerName({ ...base, username: 'me@example.com' })).toBe('Entrant');
    expect(publicOwnerName({ ...base, firstName: 'Sarah', deletedAt: 1 })).toBe('Former entrant');
  });
});

describe('remainingUntil', () => {
  it('splits the time left into days, hours, minutes and seconds', () => {
    const now = 1_000_000;
    const end = now + ((2 * 24 + 3) * 3600 + 4 * 60 + 5) * 1000 + 999;
    expect(remainingUntil(end, now)).toEqual({ days: 2, hours: 3, minutes: 4, seconds: 5, done: false });
  });
  it('shows zeros once the end has passed', () => {
    expect(remainingUntil(0, 5000)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0, done: true });
  });
});

describe('seed randomness', () => {
  it('is deterministic and picks distinct numbers in range', () => {
    const a = pickDistinct(seededRandom('x'), 100_000, 2000);
    const b = pickDistinct(seededRandom('x'), 100_000, 2000);
    expect(a).toEqual(b);
    expect(new Set(a).size).toBe(2000);
    expect(Math.min(...a)).toBeGreaterThanOrEqual(1);
    expect(Math.max(...a)).toBeLessThanOrEqual(100_000);
    expect(new Set(pickDistinct(seededRandom('y'), 20, 20))).toEqual(
      new Set(Array.from({ length: 20 }, (_, i) => i + 1)),
    );
  });
});

describe('passwords', () => {
  it('verifies the right password and refuses a wrong one', async () => {
    const hash = await hashPassword('correct horse');
    expect(hash).toMatch(/^scrypt\$32768\$8\$3\$/);
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('wrong horse', hash)).toBe(false);
    expect(await verifyPassword('anything', 'not-a-hash')).toBe(false);
  });
  it('salts every hash', async () => {
    expect(await hashPassword('same')).not.toBe(await hashPassword('same'));
  });
});

describe('knexConfig', () => {
  it('uses SQLite under DATA_DIR by default and mysql2 for mysql:// URLs', () => {
    expect(engineOf(undefined)).toBe('sqlite');
    expect(engineOf('mysql://root@localhost/x')).toBe('mysql');
    expect(knexConfig({ dataDir: '/d', databaseUrl: undefined })).toMatchObject({
      client: 'better-sqlite3',
      connection: { filename: '/d/westcountry.sqlite' },
    });
    expect(knexConfig({ dataDir: '/d', databaseUrl: 'mysql://u:p%40ss@h:3307/db' })).toMatchObject({
      client: 'mysql2',
      connection: { host: 'h', port: 3307, user: 'u', password: 'p@ss', database: 'db' },
    });
  });
  it('refuses an unsupported database URL', () => {
    expect(() => knexConfig({ dataDir: '/d', databaseUrl: 'postgres://x' })).toThrow(/mysql:\/\//);
  });
});

describe('pickAvailable (Lucky Dip)', () => {
  it('picks distinct numbers that are not taken, on sparse and dense competitions', () => {
    for (const [total, takenCount] of [
      [100_000, 50],
      [20, 15],
    ] as const) {
      const taken = new Set(pickDistinct(seededRandom(`t${total}`), total, takenCount));
      for (let i = 0; i < 200; i++) {
        const free = total - taken.size;
        const picked = pickAvailable(total, taken, Math.min(5, free));
        expect(new Set(picked).size).toBe(picked.length);
        for (const n of picked) {
          expect(taken.has(n)).toBe(false);
          expect(n).toBeGreaterThanOrEqual(1);
          expect(n).toBeLessThanOrEqual(total);
        }
      }
    }
  });

  it('refuses more numbers than are free with the spec message', () => {
    expect(() => pickAvailable(10, new Set([1, 2, 3, 4, 5, 6, 7, 8]), 3)).toThrow(
      'Only 2 tickets are available.',
    );
  });

  it('is roughly uniform over the free numbers', () => {
    const counts = new Map<number, number>();
    const taken = new Set([2, 4]);
    for (let i = 0; i < 6000; i++) {
      const [n] = pickAvailable(8, taken, 1);
      counts.set(n!, (counts.get(n!) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual([1, 3, 5, 6, 7, 8]);
    for (const c of counts.values()) expect(Math.abs(c - 1000)).toBeLessThan(150); // ~5 sigma
  });
});

describe('pickFree (Lucky Dip without reading every taken number)', () => {
  /** An in-memory TakenReader that records what it was asked. */
  const readerOf = (taken: Set<number>) => {
    const asked = { among: [] as number[][], all: 0 };
    const reader: TakenReader = {
      among: async (numbers) => {
        asked.among.push(numbers);
        return new Set(numbers.filter((n) => taken.has(n)));
      },
      all: async () => {
        asked.all++;
        return new Set(taken);
      },
    };
    return { reader, asked };
  };

  it('asks only about a few candidates while most numbers are free, and picks free ones', async () => {
    const taken = new Set(Array.from({ length: 40_000 }, (_, i) => i * 2 + 1)); // the odd numbers
    const { reader, asked } = readerOf(taken);
    const picked = await pickFree(reader, 100_000, 10, { mostlyFree: true });
    expect(picked).toHaveLength(10);
    expect(new Set(picked).size).toBe(10);
    for (const n of picked) expect(taken.has(n)).toBe(false);
    expect(asked.all).toBe(0);
    expect(asked.among).toHaveLength(1);
    expect(asked.among[0]!.length).toBe(56);
  });

  it('reads every taken number when too few candidates are free, or the competition is mostly sold', async () => {
    // Held numbers do not show in the sold count: 999 of 1,000 taken though "mostly free".
    const taken = new Set(Array.from({ length: 999 }, (_, i) => i + 2));
    const held = readerOf(taken);
    expect(await pickFree(held.reader, 1000, 1, { mostlyFree: true })).toEqual([1]);
    // Its 20 random candidates hold the one free number 2% of the time; otherwise none is free.
    expect(held.asked.all).toBe(held.asked.among[0]!.includes(1) ? 0 : 1);
    const sold = readerOf(taken);
    expect(await pickFree(sold.reader, 1000, 1, { mostlyFree: false })).toEqual([1]);
    expect(sold.asked.among).toHaveLength(0);
    // Two wanted and one free: never enough candidates, whichever were drawn.
    const short = readerOf(taken);
    await expect(pickFree(short.reader, 1000, 2, { mostlyFree: true })).rejects.toThrow(
      'Only 1 tickets are available.',
    );
    expect(short.asked.all).toBe(1);
  });

  it('is uniform over the free numbers on the candidate path', async () => {
    const taken = new Set(Array.from({ length: 40 }, (_, i) => i + 1)); // 41..100 free
    const { reader, asked } = readerOf(taken);
    const counts = new Map<number, number>();
    for (let i = 0; i < 18_000; i++) {
      const [n] = await pickFree(reader, 100, 1, { mostlyFree: true });
      counts.set(n!, (counts.get(n!) ?? 0) + 1);
    }
    expect(asked.all).toBe(0);
    expect([...counts.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => i + 41));
    for (const c of counts.values()) expect(Math.abs(c - 300)).toBeLessThan(90); // ~5 sigma
  });
});

describe('EventBus shutdown', () => {
  it('delivers nothing after close(), so no late event is broadcast over closing connections', () => {
    const bus = new EventBus();
    const seen: number[] = [];
    bus.subscribe('tickets.reserved', (e) => seen.push(e.version));
    bus.publish('tickets.reserved', { competitionId: 1, version: 1, numbers: [1] });
    expect(bus.closed).toBe(false);
    bus.close();
    bus.publish('tickets.reserved', { competitionId: 1, version: 2, numbers: [2] });
    expect(seen).toEqual([1]);
    expect(bus.closed).toBe(true);
  });
});
