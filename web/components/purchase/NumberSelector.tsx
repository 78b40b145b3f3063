import {
  type FormEvent,
  memo,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import styled from 'styled-components';
import { MAX_TICKETS_PER_PURCHASE } from '../../../contract/competitions';
import { isFree, type LiveCompetition, type NumberState, numberState } from '../../live/competitionStore';
import { subscribeLive, useLiveRev, useLiveSubscription, useNumberState } from '../../live/liveNumbers';
import { toast } from '../../stores/toast';
import {
  CellContent,
  type CellLook,
  cellLookCss,
  dataState,
  NumberKey,
  STATE_LABEL,
} from '../competitions/numberStates';
import {
  cellBox,
  type GridCellProps,
  type NumberGridHandle,
  VirtualNumberGrid,
} from '../competitions/VirtualNumberGrid';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { Spinner } from '../ui/Spinner';
import {
  fillRandomly,
  listNumbers,
  lostNumbers,
  plural,
  rangePages,
  searchNumbers,
  toggleNumber,
} from './selection';

const Slider = styled.label`
  display: grid;
  gap: 4px;
  font-weight: 600;
  input { width: 100%; accent-color: ${({ theme }) => theme.colors.brand}; }
`;

const Tools = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.xs};
  margin: ${({ theme }) => `${theme.space.sm} 0`};
  form { display: flex; gap: 4px; }
  input, select {
    min-height: 40px;
    padding: 0 ${({ theme }) => theme.space.xs};
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: ${({ theme }) => theme.radii.md};
    font: inherit;
  }
  input[type='number'], input[type='search'] { width: 130px; }
  button {
    min-height: 40px;
    padding: 0 ${({ theme }) => theme.space.sm};
    border-radius: ${({ theme }) => theme.radii.md};
    border: 1px solid ${({ theme }) => theme.colors.brand};
    background: ${({ theme }) => theme.colors.surface};
    color: ${({ theme }) => theme.colors.brand};
    font-weight: 600;
    cursor: pointer;
  }
`;

const NumberButton = styled.button<{ $look: CellLook }>`
  ${cellBox}
  ${cellLookCss}
  cursor: pointer;
  &:disabled { cursor: not-allowed; opacity: 0.75; }
  &:focus-visible { outline: 3px solid ${({ theme }) => theme.colors.info}; outline-offset: 1px; }
`;

/** A picked number can always be unpicked; others only while free and under the cap. */
const pickable = (selected: boolean, state: NumberState, atCap: boolean) =>
  selected || (state === 'available' && !atCap);

/**
 * One number; memoised on primitives, the live state and a stable `onPick`. It reads its own state
 * from `live` and re-renders when that number changes, so a ticket event re-renders only the cells
 * it changes, not the grid or the hundreds in view.
 */
const SelectorCell = memo(function SelectorCell({
  n,
  live,
  selected,
  atCap,
  perPersonCap,
  onPick,
  ...cell
}: GridCellProps & {
  n: number;
  live: LiveCompetition;
  selected: boolean;
  /** The selection has reached the per-person cap: free numbers cannot be added. */
  atCap: boolean;
  perPersonCap: number;
  onPick: (n: number) => void;
}) {
  const state = useNumberState(live, n) ?? 'available';
  const look: CellLook = selected ? 'selected' : state;
  return (
    <NumberButton
      {...cell}
      type="button"
      $look={look}
      data-number={n}
      data-state={dataState(look)}
      aria-pressed={selected}
      disabled={!pickable(selected, state, atCap)}
      title={
        selected
          ? `Ticket #${n}: selected`
          : state === 'available' && atCap
            ? `Ticket #${n}: over the limit of ${perPersonCap} per person`
            : `Ticket #${n}: ${STATE_LABEL[state]}`
      }
      onClick={() => onPick(n)}
    >
      <CellContent n={n} look={look} />
    </NumberButton>
  );
});

const SELECTOR_LOOKS: CellLook[] = ['available', 'selected', 'mine', 'reserved', 'sold', 'owned'];

const Chips = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 4px;
  align-items: center;
  min-height: 36px;
  margin: ${({ theme }) => `${theme.space.xs} 0`};
  button {
    border: 1px solid ${({ theme }) => theme.colors.brand};
    background: ${({ theme }) => theme.colors.infoBg};
    color: ${({ theme }) => theme.colors.brand};
    border-radius: ${({ theme }) => theme.radii.pill};
    padding: 2px 10px;
    font-weight: 600;
    cursor: pointer;
  }
`;

const Footer = styled.div`
  display: flex;
  flex-wrap: wrap;
  justify-content: flex-end;
  gap: ${({ theme }) => theme.space.sm};
  margin-top: ${({ theme }) => theme.space.sm};
`;

const Note = styled.p`
  margin: 0;
  font-size: ${({ theme }) => theme.fontSizes.sm};
  color: ${({ theme }) => theme.colors.textMuted};
`;

/**
 * The free numbers containing what was typed, kept live: only this re-renders at every change to
 * the numbers, and only while there is a search.
 */
function SearchResults({
  live,
  search,
  selection,
  onPick,
}: {
  live: LiveCompetition;
  search: string;
  selection: number[];
  onPick: (n: number) => void;
}) {
  const rev = useLiveRev(live, search !== '');
  // biome-ignore lint/correctness/useExhaustiveDependencies: searched again at every live change (rev)
  const matches = useMemo(
    () => searchNumbers(live.totalTickets, search, (n) => isFree(live, n)),
    [live, search, rev],
  );
  if (!search) return null;
  return (
    <Chips role="group" aria-label="Search results">
      {matches.length === 0 ? (
        <Note>No available numbers contain {search}.</Note>
      ) : (
        matches.map((n) => (
          <button key={n} type="button" aria-pressed={selection.includes(n)} onClick={() => onPick(n)}>
            {n}
          </button>
        ))
      )}
    </Chips>
  );
}

export interface NumberSelectorProps {
  open: boolean;
  onClose: () => void;
  title: string;
  live: LiveCompetition | undefined;
  quantity: number;
  onQuantityChange: (quantity: number) => void;
  selection: number[];
  onSelectionChange: (selection: number[]) => void;
  /** Adds the selection to the cart; resolves when done (the page shows the confirmation). */
  onConfirm: () => Promise<void>;
  /** The competition's per-person cap (held plus bought); the server refuses anything over it. */
  perPersonCap: number;
}

/** What the visitor may still pick under the per-person cap, counting the numbers they hold. */
export function roomUnderCap(cap: number, live: LiveCompetition | undefined) {
  const own = live?.mine.size ?? 0;
  return { own, room: Math.max(0, cap - own) };
}

/** Why a number cannot be picked once the cap is reached, in the customer's words. */
export const capReason = (cap: number, own: number) =>
  `The limit is ${cap} tickets per person${own ? ` and you already hold ${own}` : ''}.`;

/**
 * 'Select Your Lucky Numbers': a slider for how many, and the live grid of every number. Numbers
 * others hold or bought cannot be picked, and a picked number that someone else takes meanwhile
 * is dropped at once with a toast, before the visitor presses confirm.
 */
export function NumberSelector({
  open,
  onClose,
  title,
  live,
  quantity,
  onQuantityChange,
  selection,
  onSelectionChange,
  onConfirm,
  perPersonCap,
}: NumberSelectorProps) {
  const gridRef = useRef<NumberGridHandle>(null);
  const [jumpTo, setJumpTo] = useState('');
  const [search, setSearch] = useState('');
  const [firstVisible, setFirstVisible] = useState(1);
  const [busy, setBusy] = useState(false);
  const total = live?.totalTickets ?? 0;
  const free = useCallback((n: number) => (live ? isFree(live, n) : false), [live]);

  // Someone else took a picked number: drop it now. A number that became ours (our own hold,
  // confirmed a moment before the selection clears) was not taken by anyone else. Checked on
  // opening and at every live change, from the store's notice rather than a render of the picker.
  const dropTaken = () => {
    if (!open || !live) return;
    const lost = lostNumbers(selection, (n) => free(n) || numberState(live, n) === 'mine');
    if (!lost.length) return;
    onSelectionChange(selection.filter((n) => !lost.includes(n)));
    toast({
      title: 'Number no longer available',
      description: `${plural(lost.length, 'Number')} ${listNumbers(lost)} ${lost.length === 1 ? 'was' : 'were'} just taken by another user.`,
      variant: 'destructive',
    });
  };
  const dropTakenRef = useRef(dropTaken);
  useLayoutEffect(() => {
    dropTakenRef.current = dropTaken;
  });
  useEffect(() => {
    if (!open || !live) return;
    dropTakenRef.current();
    return subscribeLive(() => dropTakenRef.current(), live.competitionId);
  }, [open, live]);

  const pages = useMemo(() => rangePages(total), [total]);

  const { own, room } = roomUnderCap(perPersonCap, live);
  // Picking more than the cap allows would only be refused by the server: greyed out here.
  const atCap = selection.length >= room;

  const pick = (n: number) => {
    if (!selection.includes(n) && atCap) {
      toast({ title: 'Limit per person reached', description: capReason(perPersonCap, own) });
      return;
    }
    const { selection: next, limitReached } = toggleNumber(selection, n, quantity);
    if (limitReached) {
      toast({
        title: 'Selection limit reached',
        description: `You can only select ${quantity} ${plural(quantity, 'number')}.`,
      });
      return;
    }
    onSelectionChange(next);
  };

  // The cells call the latest `pick` through a stable function, so they need not re-render for it.
  const pickRef = useRef(pick);
  useLayoutEffect(() => {
    pickRef.current = pick;
  });
  const onPick = useCallback((n: number) => pickRef.current(n), []);

  const jump = (e: FormEvent) => {
    e.preventDefault();
    const n = Number(jumpTo);
    if (Number.isInteger(n) && n >= 1 && n <= total) gridRef.current?.scrollToNumber(n);
    else
      toast({
        title: 'Number out of range',
        description: `Choose a number from 1 to ${total.toLocaleString('en-GB')}.`,
      });
  };

  const confirm = async () => {
    if (selection.length !== quantity) {
      toast({
        title: 'Selection incomplete',
        description: `Please select ${quantity} ${plural(quantity, 'number')}.`,
      });
      return;
    }
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
    }
  };

  const stateOf = (n: number) => (live ? numberState(live, n) : 'available');
  const canPick = (n: number) => pickable(selection.includes(n), stateOf(n), atCap);

  // The Tab stop moves off a number someone takes: the grid asks `canFocus` again at every change.
  const onLiveChange = useLiveSubscription(live?.competitionId);

  const renderCell = (n: number, cell: GridCellProps) =>
    live && (
      <SelectorCell
        key={n}
        {...cell}
        n={n}
        live={live}
        selected={selection.includes(n)}
        atCap={atCap}
        perPersonCap={perPersonCap}
        onPick={onPick}
      />
    );

  return (
    <Dialog open={open} onClose={onClose} title="Select Your Lucky Numbers" wide testId="number-selector">
      <Note>{title}</Note>
      <Note data-testid="selector-cap">
        Max {perPersonCap} tickets per person
        {own > 0 && `: you hold ${own}, so you can pick ${room} more`}
        {atCap && ` - ${capReason(perPersonCap, own)}`}
      </Note>
      <Slider>
        How many tickets: {quantity}
        <input
          type="range"
          min={1}
          max={Math.max(1, Math.min(MAX_TICKETS_PER_PURCHASE, room))}
          value={quantity}
          aria-label="Number of tickets"
          onChange={(e) => {
            // Changing how many clears the selection (spec).
            onQuantityChange(Number(e.target.value));
            onSelectionChange([]);
          }}
        />
      </Slider>
      {!live ? (
        <Spinner label="Loading numbers" />
      ) : (
        <>
          <Tools>
            <form onSubmit={jump}>
              <input
                type="number"
                inputMode="numeric"
                min={1}
                max={total}
                aria-label="Go to number"
                placeholder={`1 - ${total}`}
                value={jumpTo}
                onChange={(e) => setJumpTo(e.target.value)}
              />
              <button type="submit">Go</button>
            </form>
            {pages.length > 0 && (
              <select
                aria-label="Jump to range"
                value={pages.find((p) => firstVisible >= p.start && firstVisible <= p.end)?.start ?? 1}
                onChange={(e) => gridRef.current?.scrollToNumber(Number(e.target.value))}
              >
                {pages.map((p) => (
                  <option key={p.start} value={p.start}>
                    {p.start.toLocaleString('en-GB')} - {p.end.toLocaleString('en-GB')}
                  </option>
                ))}
              </select>
            )}
            <input
              type="search"
              aria-label="Search numbers"
              placeholder="Search e.g. 777"
              inputMode="numeric"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
            <button
              type="button"
              onClick={() => onSelectionChange(fillRandomly(selection, quantity, total, free))}
            >
              Lucky Dip the rest
            </button>
          </Tools>
          <SearchResults live={live} search={search} selection={selection} onPick={pick} />
          <NumberKey looks={SELECTOR_LOOKS} compact />
          <VirtualNumberGrid
            handle={gridRef}
            total={total}
            renderCell={renderCell}
            height="min(340px, 36dvh)"
            testId="selector-grid"
            label={`Choose from ticket numbers 1 to ${total}`}
            canFocus={canPick}
            subscribe={onLiveChange}
            onFirstVisible={setFirstVisible}
          />
          <Chips role="group" aria-label="Your selection">
            <strong>
              Selected {selection.length} of {quantity}
            </strong>
            {[...selection]
              .sort((a, b) => a - b)
              .map((n) => (
                <button key={n} type="button" aria-label={`Remove number ${n}`} onClick={() => pick(n)}>
                  {n} ×
                </button>
              ))}
          </Chips>
        </>
      )}
      <Footer>
        <Button type="button" $variant="ghost" onClick={onClose}>
          Cancel
        </Button>
        <Button type="button" onClick={() => void confirm()} disabled={busy || !live}>
          {busy ? 'Adding...' : 'Confirm Selection'}
        </Button>
      </Footer>
    </Dialog>
  );
}
