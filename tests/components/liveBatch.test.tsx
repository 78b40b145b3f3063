import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { encodeBitmap } from '../../contract/bitmap';
import type { CompetitionSnapshot, TicketChange } from '../../contract/realtime';
import { type LiveCompetition, useLiveCompetitions, watchCompetition } from '../../web/live/competitionStore';
import { startFakeRealtime } from './fakeApi';
import { fakeSocket, push } from './fakeSocket';

vi.mock('socket.io-client', () => import('./fakeSocket'));

const COMPETITION = 4;
const TOTAL = 40;

function snapshot(version: number): CompetitionSnapshot {
  return {
    competitionId: COMPETITION,
    version,
    totalTickets: TOTAL,
    ticketsSold: 1,
    status: 'active',
    endDate: new Date(Date.now() + 86_400_000).toISOString(),
    autoWin: false,
    sold: encodeBitmap(TOTAL, [3]), // sold before the page opened
    reserved: encodeBitmap(TOTAL, [9]),
    mine: [9],
    owned: [],
    serverTime: new Date().toISOString(),
  };
}

// Holds, a release, our own hold bought, a stranger's sale, and a cancelled sale coming back.
const CHANGES: TicketChange[] = [
  { type: 'reserved', version: 11, numbers: [1, 2] },
  { type: 'reserved', version: 12, numbers: [5] },
  { type: 'released', version: 13, numbers: [2] },
  { type: 'purchased', version: 14, numbers: [9], ticketsSold: 2 },
  { type: 'purchased', version: 15, numbers: [5], ticketsSold: 3 },
  { type: 'released', version: 16, numbers: [3] },
];

const asSingle = ({ type, ...change }: TicketChange) =>
  push(`tickets:${type}`, { competitionId: COMPETITION, ...change });
const asBatch = (changes: TicketChange[]) =>
  push('tickets:batch', {
    competitionId: COMPETITION,
    fromVersion: changes[0]!.version,
    toVersion: changes.at(-1)!.version,
    changes,
  });

/**
 * Watches from a snapshot at `version`, runs `deliver`, and returns the state it leaves; a resync
 * meanwhile gets the snapshot at `resyncVersion`.
 */
function afterDelivering(version: number, deliver: () => void, resyncVersion = version) {
  fakeSocket.snapshot = snapshot(version);
  fakeSocket.watches = 0;
  const stop = watchCompetition(COMPETITION);
  fakeSocket.snapshot = snapshot(resyncVersion);
  deliver();
  const live = useLiveCompetitions.getState().byId[COMPETITION];
  const state = live && comparable(live);
  const watches = fakeSocket.watches;
  stop();
  return { state, watches };
}

const comparable = (c: LiveCompetition) => ({
  version: c.version,
  ticketsSold: c.ticketsSold,
  sold: [...c.sold],
  reserved: [...c.reserved],
  mine: [...c.mine].sort(),
  owned: [...c.owned].sort(),
});

afterEach(() => {
  useLiveCompetitions.setState({ byId: {} });
});

// The stores' listeners reach the (mocked) socket once it has loaded, as in the app.
beforeAll(startFakeRealtime);

describe('live ticket store: a tickets:batch is the singles it stands for', () => {
  it('leaves the same state as the same changes arriving one by one', () => {
    const singles = afterDelivering(10, () => CHANGES.forEach(asSingle));
    const batched = afterDelivering(10, () => asBatch(CHANGES));
    const split = afterDelivering(10, () => {
      asSingle(CHANGES[0]!);
      asBatch(CHANGES.slice(1, 4));
      asBatch(CHANGES.slice(4));
    });
    expect(singles.state).toMatchObject({ version: 16, ticketsSold: 2, owned: [9], mine: [] });
    expect(batched).toEqual(singles);
    expect(split).toEqual(singles);
    expect(singles.watches).toBe(1); // no resync
  });

  it('skips the changes the snapshot already has, as it does for singles', () => {
    const singles = afterDelivering(12, () => CHANGES.forEach(asSingle));
    const batched = afterDelivering(12, () => asBatch(CHANGES));
    expect(singles.state?.version).toBe(16);
    expect(batched).toEqual(singles);
  });

  it('a batch after a missed version resyncs from a fresh snapshot, as a single would (gap rule on fromVersion)', () => {
    const singles = afterDelivering(10, () => CHANGES.slice(1).forEach(asSingle), 16);
    const batched = afterDelivering(10, () => asBatch(CHANGES.slice(1)), 16);
    expect(singles.watches).toBe(2);
    expect(singles.state?.version).toBe(16);
    expect(batched).toEqual(singles);
  });

  it('ignores a malformed batch (the next change then shows the gap)', () => {
    const { state, watches } = afterDelivering(10, () =>
      push('tickets:batch', { competitionId: COMPETITION, fromVersion: 11, toVersion: 12, changes: [] }),
    );
    expect(state?.version).toBe(10);
    expect(watches).toBe(1);
  });
});
