import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import styled from 'styled-components';
import type { Bundle } from '../../../contract/bundles';
import { MAX_TICKETS_PER_PURCHASE } from '../../../contract/competitions';
import { poundsToPence } from '../../../contract/money';
import { isFree, type LiveCompetition, numberState } from '../../live/competitionStore';
import { useLiveSubscription } from '../../live/liveNumbers';
import { toast } from '../../stores/toast';
import { NumberKey } from '../competitions/numberStates';
import { StaleNumbers } from '../competitions/StaleNumbers';
import {
  type GridCellProps,
  type NumberGridHandle,
  VirtualNumberGrid,
} from '../competitions/VirtualNumberGrid';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { Spinner } from '../ui/Spinner';
import { BundleOffers, OneMoreHint, quantityPrice } from './BundleOffers';
import { HeldNumberAlert } from './numberAlerts';
import { capReason, roomUnderCap } from './perPersonCap';
import { pickable, SELECTOR_LOOKS, SelectorCell } from './SelectorCell';
import { Note, SearchResults, SelectionChips } from './SelectorChips';
import { SelectorTools } from './SelectorTools';
import { fillRandomly, pickNumber, plural } from './selection';
import { useDropTaken } from './useDropTaken';

const Slider = styled.label`
  display: grid;
  gap: 4px;
  font-weight: 600;
  input { width: 100%; accent-color: ${({ theme }) => theme.colors.brand}; }
`;

// Stays at the bottom of the dialog while its content scrolls, so Confirm is always in view on a phone.
const Footer = styled.div`
  position: sticky;
  bottom: -${({ theme }) => theme.space.lg};
  z-index: 1;
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: flex-end;
  gap: ${({ theme }) => theme.space.sm};
  margin: ${({ theme }) => theme.space.sm} -${({ theme }) => theme.space.lg} -${({ theme }) => theme.space.lg};
  padding: ${({ theme }) => theme.space.sm} ${({ theme }) => theme.space.lg};
  background: ${({ theme }) => theme.colors.surface};
  border-top: 1px solid ${({ theme }) => theme.colors.border};
`;

const Total = styled.p`
  margin: 0 auto 0 0;
  font-weight: 600;
`;

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
  /** The price of one ticket, for the running total. */
  ticketPrice: number;
  /** The competition's multi-buy offers (pence): shown, and the total is the cheapest mix. */
  bundles?: readonly Bundle[];
}

/**
 * Picking and unpicking one number, within the quantity and the per-person cap (each refusal a
 * toast). `onPick` is stable and calls the latest rule, so the cells need not re-render for it.
 */
function usePick(
  { selection, quantity, perPersonCap, onSelectionChange, onQuantityChange }: NumberSelectorProps,
  atCap: boolean,
  own: number,
  max: number,
) {
  const pick = (n: number) => {
    if (!selection.includes(n) && atCap) {
      toast({ title: 'Limit per person reached', description: capReason(perPersonCap, own) });
      return;
    }
    const picked = pickNumber(selection, n, quantity, max);
    if (picked.limitReached) {
      toast({
        title: 'Selection limit reached',
        description: `You can only select ${max} ${plural(max, 'number')}.`,
      });
      return;
    }
    if (picked.quantity !== quantity) onQuantityChange(picked.quantity);
    onSelectionChange(picked.selection);
  };
  const pickRef = useRef(pick);
  useLayoutEffect(() => {
    pickRef.current = pick;
  });
  const onPick = useCallback((n: number) => pickRef.current(n), []);
  return { pick, onPick };
}

/** 'Confirm Selection': only a complete selection is sent; busy until the cart has answered. */
function useConfirm({ selection, quantity, onConfirm }: NumberSelectorProps) {
  const [busy, setBusy] = useState(false);
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
  return { busy, confirm };
}

/** How many tickets: never below the numbers picked, so changing it keeps every pick (unpick to go lower). */
function CountSlider({
  quantity,
  max,
  picked,
  onChange,
}: {
  quantity: number;
  max: number;
  picked: number;
  onChange: (quantity: number) => void;
}) {
  return (
    <Slider>
      How many tickets: {quantity}
      <input
        type="range"
        min={1}
        max={max}
        value={quantity}
        aria-label="Number of tickets"
        onChange={(e) => onChange(Math.max(Number(e.target.value), picked, 1))}
      />
    </Slider>
  );
}

/** The running total and the buttons, kept in view at the bottom of the dialog. */
function SelectorFooter({
  quantity,
  ticketPrice,
  bundles,
  busy,
  ready,
  onCancel,
  onConfirm,
}: {
  quantity: number;
  ticketPrice: number;
  bundles: readonly Bundle[];
  busy: boolean;
  ready: boolean;
  onCancel: () => void;
  onConfirm: () => Promise<void>;
}) {
  return (
    <Footer>
      <Total data-testid="selector-total">
        {quantity} {plural(quantity, 'ticket')}:{' '}
        {quantityPrice(quantity, poundsToPence(ticketPrice), bundles)}
      </Total>
      <Button type="button" $variant="ghost" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="button" onClick={() => void onConfirm()} disabled={busy || !ready}>
        {busy ? 'Adding...' : 'Confirm Selection'}
      </Button>
    </Footer>
  );
}

/**
 * 'Select Your Lucky Numbers': a slider for how many, and the live grid of every number. Numbers
 * others hold or bought cannot be picked, and a picked number that someone else takes meanwhile
 * is dropped at once with a toast, before the visitor presses confirm.
 */
export function NumberSelector(props: NumberSelectorProps) {
  const {
    open,
    onClose,
    title,
    live,
    quantity,
    onQuantityChange,
    selection,
    onSelectionChange,
    perPersonCap,
    ticketPrice,
    bundles = [],
  } = props;
  const gridRef = useRef<NumberGridHandle>(null);
  const [search, setSearch] = useState('');
  const [firstVisible, setFirstVisible] = useState(1);
  const onTopRow = useCallback((_first: number, rowEnd: number) => setFirstVisible(rowEnd), []);
  const total = live?.totalTickets ?? 0;
  const free = useCallback((n: number) => (live ? isFree(live, n) : false), [live]);
  useDropTaken(open, live, selection, onSelectionChange);

  const { own, room } = roomUnderCap(perPersonCap, live);
  // Picking more than the cap allows would only be refused by the server: greyed out here.
  const atCap = selection.length >= room;
  const max = Math.max(1, Math.min(MAX_TICKETS_PER_PURCHASE, room));
  const { pick, onPick } = usePick(props, atCap, own, max);
  const { busy, confirm } = useConfirm(props);

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
      <CountSlider quantity={quantity} max={max} picked={selection.length} onChange={onQuantityChange} />
      <BundleOffers bundles={bundles} />
      {quantity < max && (
        <OneMoreHint quantity={quantity} unitPence={poundsToPence(ticketPrice)} bundles={bundles} />
      )}
      {!live ? (
        <Spinner label="Loading numbers" />
      ) : (
        <>
          <SelectorTools
            grid={gridRef}
            total={total}
            firstVisible={firstVisible}
            search={search}
            onSearch={setSearch}
            onLuckyDip={() => onSelectionChange(fillRandomly(selection, quantity, total, free))}
          />
          <SearchResults live={live} search={search} selection={selection} onPick={pick} />
          <HeldNumberAlert live={live} search={search} />
          <NumberKey looks={SELECTOR_LOOKS} compact />
          <StaleNumbers stale={live.stale}>
            <VirtualNumberGrid
              handle={gridRef}
              total={total}
              renderCell={renderCell}
              height="min(340px, 36dvh)"
              testId="selector-grid"
              label={`Choose from ticket numbers 1 to ${total}`}
              canFocus={canPick}
              subscribe={onLiveChange}
              onFirstVisible={onTopRow}
            />
          </StaleNumbers>
          <SelectionChips selection={selection} quantity={quantity} onPick={pick} />
        </>
      )}
      <SelectorFooter
        quantity={quantity}
        ticketPrice={ticketPrice}
        bundles={bundles}
        busy={busy}
        ready={Boolean(live)}
        onCancel={onClose}
        onConfirm={confirm}
      />
    </Dialog>
  );
}
