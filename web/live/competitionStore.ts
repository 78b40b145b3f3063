import { useEffect, useMemo } from 'react';
import * as v from 'valibot';
import { create } from 'zustand';
import { decodeBitmap, hasBit } from '../../contract/bitmap';
import type { CartItemView } from '../../contract/cart';
import {
  type CompetitionSnapshot,
  type TicketsBatchEvent,
  TicketsBatchEventSchema,
  type TicketsEvent,
  type TicketsPurchasedEvent,
} from '../../contract/realtime';
import { getSocket } from './socket';

/** mine: held in this visitor's cart; owned: bought by this account; sold: bought by someone else. */
export type NumberState = 'available' | 'mine' | 'reserved' | 'sold' | 'owned';

/**
 * The live ticket state of one watched competition. Bitmaps are mutated in place. The object is
 * replaced (re-rendering whoever holds it) only when its own fields change (tickets sold, status,
 * this visitor's numbers); a change to other numbers re-renders only their cells
 * (liveNumbers.ts). `rev` counts every published change.
 */
export interface LiveCompetition {
  competitionId: number;
  totalTickets: number;
  version: number;
  ticketsSold: number;
  status: string;
  sold: Uint8Array;
  reserved: Uint8Array;
  mine: Set<number>;
  owned: Set<number>;
  rev: number;
  /**
   * The connection dropped, or a change was missed: what this shows may be out of date until the
   * fresh snapshot replaces it.
   */
  stale: boolean;
}

interface LiveState {
  byId: Record<number, LiveCompetition | undefined>;
}

export const useLiveCompetitions = create<LiveState>(() => ({ byId: {} }));

/**
 * Fields of watched competitions changed by an admin since the page loaded them
 * (`competition:updated`), to lay over the page's own copy.
 */
export const useCompetitionEdits = create<{ byId: Record<number, Record<string, unknown> | undefined> }>(
  () => ({ byId: {} }),
);

/** The competition as loaded, with any live edits laid over it. */
export function useEditedCompetition<T extends { id: number }>(loaded: T | undefined): T | undefined {
  const edits = useCompetitionEdits((s) => (loaded ? s.byId[loaded.id] : undefined));
  return useMemo(() => (loaded && edits ? { ...loaded, ...edits } : loaded), [loaded, edits]);
}

type PendingEvent =
  | { kind: 'reserved'; e: TicketsEvent }
  | { kind: 'released'; e: TicketsEvent }
  | { kind: 'purchased'; e: TicketsPurchasedEvent };

const watchers = new Map<number, number>(); // competitionId -> number of components watching
/** Events not applied yet: they arrived before the snapshot, or while this tab's own change was unanswered. */
const pending = new Map<number, PendingEvent[]>();
/** competitionId -> this tab's cart changes to it still awaiting their answer. */
const unanswered = new Map<number, number>();
/** competitionId -> versions this tab's own answered changes produced, whose events may still come. */
const ownVersions = new Map<number, Set<number>>();
/** Competitions whose fresh snapshot is on its way: their events wait for it (`pending`). */
const awaiting = new Set<number>();
let listening = false;

const setBit = (bytes: Uint8Array, n: number, on: boolean) => {
  const i = (n - 1) >> 3;
  const mask = 1 << ((n - 1) & 7);
  if (i < 0 || i >= bytes.length) return;
  bytes[i] = on ? bytes[i]! | mask : bytes[i]! & ~mask;
};

export function numberState(c: LiveCompetition, n: number): NumberState {
  if (hasBit(c.sold, n)) return c.owned.has(n) ? 'owned' : 'sold';
  if (c.mine.has(n)) return 'mine';
  if (hasBit(c.reserved, n)) return 'reserved';
  return 'available';
}

/** Numbers nobody holds or owns: the ones a visitor may pick. */
export const isFree = (c: LiveCompetition, n: number) => numberState(c, n) === 'available';

const popcount = (b: number) => {
  let x = b - ((b >> 1) & 0x55);
  x = (x & 0x33) + ((x >> 2) & 0x33);
  return (x + (x >> 4)) & 0x0f;
};

/** How many numbers are neither sold nor held by anyone. */
export function freeCount(c: LiveCompetition): number {
  let taken = 0;
  for (let i = 0; i < c.sold.length; i++) taken += popcount((c.sold[i] ?? 0) | (c.reserved[i] ?? 0));
  return Math.max(0, c.totalTickets - taken);
}

/** How many numbers someone holds right now (held, not sold). */
export function heldCount(c: LiveCompetition): number {
  let held = 0;
  for (let i = 0; i < c.reserved.length; i++)
    held += popcount((c.reserved[i] ?? 0) & ~(c.sold[i] ?? 0) & 0xff);
  return held;
}

/**
 * Competitions changed since the last render: the numbers whose state changed, and whether the
 * competition's own fields did (then the object is replaced, re-rendering everything showing it).
 * The store publishes them once per frame.
 */
const dirty = new Map<number, { numbers: Set<number>; fields: boolean }>();
let publishing = false;

/** Told of each published change: the competition and its numbers changed (liveNumbers.ts). */
export const publishedChanges = new Set<(id: number, numbers: ReadonlySet<number>) => void>();

function publish() {
  publishing = false;
  const changes = [...dirty];
  dirty.clear();
  const replaced: LiveCompetition[] = [];
  for (const [id, d] of changes) {
    const c = useLiveCompetitions.getState().byId[id];
    if (!c) continue;
    c.rev++;
    if (d.fields) replaced.push({ ...c });
  }
  if (replaced.length)
    useLiveCompetitions.setState((s) => {
      const byId = { ...s.byId };
      for (const c of replaced) byId[c.competitionId] = c;
      return { byId };
    });
  // React renders all of these together, in a microtask after this frame callback.
  for (const [id, d] of changes) for (const told of publishedChanges) told(id, d.numbers);
}

/** The fields whose change replaces the object (`LiveCompetition`). */
const fieldsOf = (c: LiveCompetition) =>
  [c.totalTickets, c.ticketsSold, c.status, c.mine, c.mine.size, c.owned, c.owned.size, c.stale] as const;

/**
 * Changes the live state at once (later events and reads see it) but re-renders once per
 * animation frame: at 100 ticket events a second the page would otherwise render the grids 100
 * times a second, more often than the screen shows them. A hidden tab (no frames) publishes on a
 * timer. `numbers`: the numbers whose state the change may alter.
 */
function update(id: number, numbers: readonly number[], mutate: (c: LiveCompetition) => void) {
  const current = useLiveCompetitions.getState().byId[id];
  if (!current) return;
  const before = fieldsOf(current);
  mutate(current);
  const after = fieldsOf(current);
  const d = dirty.get(id) ?? { numbers: new Set<number>(), fields: false };
  dirty.set(id, d);
  for (const n of numbers) d.numbers.add(n);
  if (before.some((v, i) => v !== after[i])) d.fields = true;
  if (publishing) return;
  publishing = true;
  if (typeof requestAnimationFrame === 'function' && document.visibilityState === 'visible')
    requestAnimationFrame(publish);
  else setTimeout(publish, 0);
}

function applySnapshot(snapshot: CompetitionSnapshot) {
  const live: LiveCompetition = {
    competitionId: snapshot.competitionId,
    totalTickets: snapshot.totalTickets,
    version: snapshot.version,
    ticketsSold: snapshot.ticketsSold,
    status: snapshot.status,
    sold: decodeBitmap(snapshot.sold),
    reserved: decodeBitmap(snapshot.reserved),
    mine: new Set(snapshot.mine),
    owned: new Set(snapshot.owned),
    rev: 0,
    stale: false,
  };
  awaiting.delete(snapshot.competitionId);
  useLiveCompetitions.setState((s) => ({ byId: { ...s.byId, [snapshot.competitionId]: live } }));
  // Events that raced the snapshot: apply those newer than it, in order.
  drain(snapshot.competitionId);
}

/** Applies the held-back events in version order, once there is a snapshot and no own change unanswered. */
function drain(id: number) {
  if (!useLiveCompetitions.getState().byId[id] || unanswered.has(id) || awaiting.has(id)) return;
  const queued = (pending.get(id) ?? []).sort((a, b) => a.e.version - b.e.version);
  pending.delete(id);
  for (const p of queued) apply(p);
}

function apply(p: PendingEvent) {
  const id = p.e.competitionId;
  if (!watchers.has(id)) return;
  const live = useLiveCompetitions.getState().byId[id];
  // Before its answer, this tab cannot tell its own change's broadcast from a stranger's, and
  // showing its own numbers as taken would drop them from the selection: wait for the answer.
  if (!live || unanswered.has(id) || awaiting.has(id)) {
    pending.set(id, [...(pending.get(id) ?? []), p]);
    return;
  }
  const own = ownVersions.get(id);
  const mine = own?.delete(p.e.version) ?? false;
  if (own) for (const v of own) if (v <= p.e.version) own.delete(v); // events that will never come
  if (p.e.version <= live.version) return; // already in the snapshot
  if (p.e.version !== live.version + 1) {
    resync(id); // a missed event: start again from a fresh snapshot
    return;
  }
  update(id, p.e.numbers, (c) => {
    c.version = p.e.version;
    for (const n of p.e.numbers) {
      if (p.kind === 'reserved') {
        setBit(c.reserved, n, true);
        // Our own hold: the cart answer has already made it ours; this keeps it so in any order.
        if (mine) c.mine.add(n);
      } else {
        setBit(c.reserved, n, false);
        // Only this visitor's own hold can become this visitor's purchase.
        if (p.kind === 'purchased' && c.mine.has(n)) c.owned.add(n);
        c.mine.delete(n);
        if (p.kind === 'purchased') setBit(c.sold, n, true);
        else if (hasBit(c.sold, n)) {
          // A release of a sold number is an admin's cancelled order: it is back on sale.
          setBit(c.sold, n, false);
          c.owned.delete(n);
          c.ticketsSold = Math.max(0, c.ticketsSold - 1);
        }
      }
    }
    if (p.kind === 'purchased') c.ticketsSold = p.e.ticketsSold;
  });
}

/**
 * A burst's coalesced changes: each is applied exactly as if it had come alone, in order, so the
 * gap rule meets the batch's first version. A malformed batch is dropped; the next change then
 * shows the gap and a fresh snapshot follows.
 */
function applyBatch(batch: TicketsBatchEvent): void {
  const parsed = v.safeParse(TicketsBatchEventSchema, batch);
  if (!parsed.success) return;
  const { competitionId, changes } = parsed.output;
  for (const change of changes) {
    if (change.type === 'purchased') {
      const { version, numbers, ticketsSold } = change;
      apply({ kind: 'purchased', e: { competitionId, version, numbers, ticketsSold } });
    } else
      apply({ kind: change.type, e: { competitionId, version: change.version, numbers: change.numbers } });
  }
}

function requestSnapshot(id: number) {
  getSocket().emit('competition:watch', { competitionId: id }, (answer) => {
    if (answer.ok && watchers.has(id)) applySnapshot(answer.snapshot);
  });
}

/** Marks what is shown as possibly out of date (kept on screen, never cleared to 'available'). */
function markStale(id: number) {
  update(id, [], (c) => {
    c.stale = true;
  });
}

/** Starts again from a fresh snapshot; until it comes the competition shows as out of date. */
function resync(id: number) {
  awaiting.add(id);
  markStale(id);
  requestSnapshot(id);
}

function listen() {
  if (listening) return;
  listening = true;
  const socket = getSocket();
  socket.on('tickets:reserved', (e) => apply({ kind: 'reserved', e }));
  socket.on('tickets:released', (e) => apply({ kind: 'released', e }));
  socket.on('tickets:purchased', (e) => apply({ kind: 'purchased', e }));
  socket.on('tickets:batch', applyBatch);
  socket.on('competition:updated', (e) => {
    const { competitionId: id, version, ...fields } = e;
    if (!watchers.has(id)) return;
    // The edited fields (title, price, dates...) for pages showing this competition.
    useCompetitionEdits.setState((s) => ({ byId: { ...s.byId, [id]: { ...s.byId[id], ...fields } } }));
    const live = useLiveCompetitions.getState().byId[id];
    if (!live || awaiting.has(id)) return; // the snapshot still to come is newer
    // The edit took a version too: a changed grid size, or a version missed, needs a new snapshot.
    const total = typeof fields.totalTickets === 'number' ? fields.totalTickets : live.totalTickets;
    if (version > live.version + 1 || total !== live.totalTickets) {
      resync(id);
      return;
    }
    update(id, [], (c) => {
      if (version === c.version + 1) c.version = version;
      if (typeof fields.status === 'string') c.status = fields.status;
    });
  });
  // After any reconnect (network drop, or the server ending a session) the rooms are gone:
  // watch again from fresh snapshots. Emits made while disconnected are buffered by the client.
  let connectedBefore = socket.connected;
  // Nothing arrives while the connection is down: every number shown may be out of date.
  socket.on('disconnect', () => {
    for (const id of watchers.keys()) markStale(id);
  });
  socket.on('connect', () => {
    if (connectedBefore) for (const id of watchers.keys()) resync(id);
    connectedBefore = true;
  });
}

/**
 * The numbers this visitor holds follow their cart, whichever way it arrived (an answer, a push
 * from another tab or the sweeper, a reload). The cart store calls this with every cart it shows.
 */
export function followCart(items: readonly CartItemView[]): void {
  for (const id of watchers.keys()) {
    const held = items.filter((i) => i.competitionId === id).flatMap((i) => i.heldNumbers);
    update(id, [], (c) => {
      c.mine = new Set(held);
    });
  }
}

/**
 * This tab is about to change its holds in these competitions. Their ticket events wait until
 * the answer names the versions the change produced (`settle`), so the change's own broadcast is
 * recognised as ours whether it comes before the answer or after. A failed change settles with
 * no versions: every event that waited was someone else's.
 */
export function ownChange(competitionIds: readonly number[]): {
  settle: (versions?: Record<string, number>) => void;
} {
  const ids = [...new Set(competitionIds)];
  for (const id of ids) unanswered.set(id, (unanswered.get(id) ?? 0) + 1);
  let settled = false;
  return {
    settle: (versions = {}) => {
      if (settled) return;
      settled = true;
      for (const [key, version] of Object.entries(versions)) {
        const id = Number(key);
        if (watchers.has(id)) ownVersions.set(id, (ownVersions.get(id) ?? new Set()).add(version));
      }
      for (const id of ids) {
        const left = (unanswered.get(id) ?? 1) - 1;
        if (left > 0) unanswered.set(id, left);
        else unanswered.delete(id);
        drain(id);
      }
    },
  };
}

/** Starts watching (reference-counted); returns the function that stops. */
export function watchCompetition(id: number): () => void {
  listen();
  const count = watchers.get(id) ?? 0;
  watchers.set(id, count + 1);
  if (count === 0) requestSnapshot(id);
  return () => {
    const left = (watchers.get(id) ?? 1) - 1;
    if (left > 0) {
      watchers.set(id, left);
      return;
    }
    watchers.delete(id);
    pending.delete(id);
    awaiting.delete(id);
    ownVersions.delete(id);
    useCompetitionEdits.setState((s) => ({ byId: { ...s.byId, [id]: undefined } }));
    getSocket().emit('competition:unwatch', { competitionId: id });
    useLiveCompetitions.setState((s) => ({ byId: { ...s.byId, [id]: undefined } }));
  };
}

/**
 * The live state of a competition while the calling component is mounted (undefined until the
 * snapshot). The caller re-renders when the competition's own fields change, not at every number.
 */
export function useLiveCompetition(id: number | undefined): LiveCompetition | undefined {
  useEffect(() => (id ? watchCompetition(id) : undefined), [id]);
  return useLiveCompetitions((s) => (id ? s.byId[id] : undefined));
}
