import * as v from 'valibot';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type TicketChange, type TicketsBatchEvent, TicketsBatchEventSchema } from '../../contract/realtime';
import { type BatchingPolicy, TicketBatcher } from '../../realtime/ticketBatches';

const POLICY: BatchingPolicy = { tickMs: 50, maxShare: 0.5, burst: { changes: 10, withinMs: 250 } };

type Sent = { at: number; competitionId: number } & (
  | { kind: 'single'; change: TicketChange }
  | { kind: 'batch'; event: TicketsBatchEvent }
);

/** `writeMs`: how long each batch takes to write to the room (the clock moves on meanwhile). */
function harness(policy = POLICY, writeMs = 0) {
  const sent: Sent[] = [];
  const write = () => vi.setSystemTime(Date.now() + writeMs);
  const batcher = new TicketBatcher(
    {
      single: (competitionId, change) => {
        sent.push({ at: Date.now(), competitionId, kind: 'single', change });
      },
      batch: (event) => {
        sent.push({ at: Date.now(), competitionId: event.competitionId, kind: 'batch', event });
        write();
      },
    },
    policy,
  );
  /** Every version sent, in the order a client receives them. */
  const versions = (competitionId = 1) =>
    sent
      .filter((s) => s.competitionId === competitionId)
      .flatMap((s) => (s.kind === 'single' ? [s.change.version] : s.event.changes.map((c) => c.version)));
  return { batcher, sent, versions };
}

const reserved = (version: number): TicketChange => ({ type: 'reserved', version, numbers: [version] });

/** Pushes `count` changes at `perSecond`, from version `from`, advancing the fake clock. */
function pushAtRate(batcher: TicketBatcher, count: number, perSecond: number, from = 1, competitionId = 1) {
  for (let version = from; version < from + count; version++) {
    batcher.push(competitionId, reserved(version));
    vi.advanceTimersByTime(1000 / perSecond);
  }
}

describe('ticket changes coalesced under a burst (realtime/ticketBatches.ts)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('at 10 changes a second sends every change alone, the moment it is pushed', () => {
    const { batcher, sent, versions } = harness();
    for (let version = 1; version <= 100; version++) {
      const pushedAt = Date.now();
      batcher.push(1, reserved(version));
      expect(sent.at(-1)).toEqual({
        at: pushedAt,
        competitionId: 1,
        kind: 'single',
        change: reserved(version),
      });
      vi.advanceTimersByTime(100);
    }
    expect(sent.every((s) => s.kind === 'single')).toBe(true);
    expect(versions()).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
  });

  it('sends a few changes in quick succession (a person, a short run of requests) alone at once', () => {
    const { batcher, sent } = harness();
    for (let version = 1; version <= 9; version++) batcher.push(1, reserved(version));
    expect(sent.map((s) => s.kind)).toEqual(Array(9).fill('single'));
  });

  it('at 100 changes a second sends batches, one per tick, each in version order, every version exactly once', () => {
    const { batcher, sent, versions } = harness();
    pushAtRate(batcher, 1000, 100);
    vi.advanceTimersByTime(200);
    const batches = sent.flatMap((s) => (s.kind === 'batch' ? [s.event] : []));
    // Ten seconds at 100/s: about 20 frames a second once the burst is seen, not 100.
    expect(batches.length).toBeGreaterThan(150);
    expect(sent.length).toBeLessThan(250);
    for (const b of batches) {
      expect(v.safeParse(TicketsBatchEventSchema, b).success).toBe(true);
      expect(b.changes.length).toBeGreaterThan(1);
      expect(b.toVersion - b.fromVersion + 1).toBe(b.changes.length);
    }
    expect(versions()).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
    // No change waits longer than one tick (version v was pushed at start + (v - 1) * 10 ms).
    for (const s of sent)
      for (const version of s.kind === 'single' ? [s.change.version] : s.event.changes.map((c) => c.version))
        expect(s.at - (1_000_000 + (version - 1) * 10)).toBeLessThanOrEqual(POLICY.tickMs);
  });

  it('in a large room, spaces frames so that writing them takes at most maxShare of the time', () => {
    // Each frame takes 40 ms to write to everyone: ticks of 80 ms, not 50, at maxShare 0.5.
    const { batcher, sent, versions } = harness(POLICY, 40);
    for (let version = 1; version <= 300; version++) {
      batcher.push(1, reserved(version));
      vi.advanceTimersByTime(10);
    }
    vi.advanceTimersByTime(500);
    expect(versions()).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    const batches = sent.filter((s) => s.kind === 'batch');
    expect(batches.length).toBeGreaterThan(10);
    for (let i = 1; i < batches.length; i++)
      expect(batches[i]!.at - batches[i - 1]!.at).toBeGreaterThanOrEqual(40 + 40 / POLICY.maxShare);
  });

  it('orders a tick by version even when changes were published out of order', () => {
    const { batcher, sent } = harness();
    pushAtRate(batcher, 10, 1000); // the tenth change within 250 ms starts the ticks
    for (const version of [13, 11, 12]) batcher.push(1, reserved(version));
    vi.advanceTimersByTime(POLICY.tickMs);
    const last = sent.at(-1)!;
    expect(last.kind === 'batch' && last.event.changes.map((c) => c.version)).toEqual([10, 11, 12, 13]);
  });

  it('goes back to single changes with no delay once a tick gathers nothing', () => {
    const { batcher, sent } = harness();
    pushAtRate(batcher, 50, 200);
    vi.advanceTimersByTime(2 * POLICY.tickMs); // the last tick, then one with nothing
    const before = sent.length;
    batcher.push(1, reserved(51));
    expect(sent.length).toBe(before + 1);
    expect(sent.at(-1)).toMatchObject({ kind: 'single', change: reserved(51) });
  });

  it('keeps competitions apart: a burst on one does not delay another', () => {
    const { batcher, sent, versions } = harness();
    pushAtRate(batcher, 20, 1000, 1, 1);
    batcher.push(2, reserved(1));
    expect(sent.at(-1)).toMatchObject({ competitionId: 2, kind: 'single' });
    vi.advanceTimersByTime(POLICY.tickMs * 2);
    expect(versions(1)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(versions(2)).toEqual([1]);
  });

  it('flush sends what is held at once (before anything else for that room)', () => {
    const { batcher, sent, versions } = harness();
    pushAtRate(batcher, 12, 1000);
    const held = 12 - versions().length;
    expect(held).toBeGreaterThan(0);
    batcher.flush(1);
    expect(versions()).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    const count = sent.length;
    vi.advanceTimersByTime(POLICY.tickMs);
    expect(sent.length).toBe(count); // nothing sent twice
  });

  it('close sends every held change and later changes go out alone', () => {
    const { batcher, sent, versions } = harness();
    pushAtRate(batcher, 15, 1000, 1, 1);
    pushAtRate(batcher, 15, 1000, 1, 2);
    batcher.close();
    expect(versions(1)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
    expect(versions(2)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
    const count = sent.length;
    vi.advanceTimersByTime(1000);
    expect(sent.length).toBe(count);
    batcher.push(1, reserved(16));
    expect(sent.at(-1)).toMatchObject({ kind: 'single', change: reserved(16) });
  });

  it('a purchase in a batch keeps its ticketsSold', () => {
    const { batcher, sent } = harness();
    pushAtRate(batcher, 10, 1000);
    batcher.push(1, { type: 'purchased', version: 11, numbers: [1], ticketsSold: 1 });
    vi.advanceTimersByTime(POLICY.tickMs);
    const last = sent.at(-1)!;
    expect(last.kind === 'batch' && last.event.changes.at(-1)).toEqual({
      type: 'purchased',
      version: 11,
      numbers: [1],
      ticketsSold: 1,
    });
  });
});

describe('TicketsBatchEventSchema', () => {
  const batch = (changes: TicketChange[]) => ({
    competitionId: 1,
    fromVersion: changes[0]?.version ?? 0,
    toVersion: changes.at(-1)?.version ?? 0,
    changes,
  });
  it('accepts changes in version order and refuses others', () => {
    expect(v.safeParse(TicketsBatchEventSchema, batch([reserved(1), reserved(2)])).success).toBe(true);
    expect(v.safeParse(TicketsBatchEventSchema, batch([reserved(2), reserved(1)])).success).toBe(false);
    expect(v.safeParse(TicketsBatchEventSchema, batch([])).success).toBe(false);
    expect(
      v.safeParse(TicketsBatchEventSchema, { ...batch([reserved(1), reserved(2)]), fromVersion: 0 }).success,
    ).toBe(false);
  });
  it('requires ticketsSold on a purchase', () => {
    const purchase = { type: 'purchased', version: 1, numbers: [1] } as unknown as TicketChange;
    expect(v.safeParse(TicketsBatchEventSchema, batch([purchase])).success).toBe(false);
  });
});
