import { useRef, useState } from 'react';
import styled from 'styled-components';
import { useLocation } from 'wouter';
import { type Bundle, bundlesToPence } from '../../../contract/bundles';
import type { PublicCompetition } from '../../../contract/competitions';
import { poundsToPence } from '../../../contract/money';
import { freeCount, type LiveCompetition } from '../../live/competitionStore';
import { useHydrated } from '../../ssr/seed';
import { useCart } from '../../stores/cart';
import { toast } from '../../stores/toast';
import { PlayBlockBanner, usePlayBlock } from '../account/PlayBlock';
import { Button } from '../ui/Button';
import { AddedToCartDialog } from './AddedToCartDialog';
import { reportAddFailure } from './addFailure';
import { BundleOffers } from './BundleOffers';
import { NumberSelector } from './NumberSelector';
import { FreedNumbers } from './numberAlerts';
import { useGridPicks } from './pickRequest';
import { QuantityStepper } from './QuantityStepper';
import { SkillQuestionDialog } from './SkillQuestionDialog';
import { StickyBuyBar } from './StickyBuyBar';
import { plural } from './selection';
import { useSkillGate } from './useSkillGate';

const Buttons = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.sm};
  grid-template-columns: 1fr 1fr;
`;

/**
 * 'select' opens the selector empty; a number opens it with that number picked (the entries grid);
 * `{ hold }` holds one freed number at once (a number alert's 'Hold number 7').
 */
type Action = 'select' | 'buy' | number | { hold: number };

/** A Lucky Dip of more numbers than are free: said, and true (nothing is added). */
function notEnoughFree(live: LiveCompetition | undefined, quantity: number): boolean {
  if (!live || freeCount(live) >= quantity) return false;
  toast({
    title: 'Not enough tickets available',
    description: `Only ${freeCount(live)} tickets are available.`,
    variant: 'destructive',
  });
  return true;
}

/** Adds to the cart; on failure explains why (and keeps what can be kept) and answers false. */
function useAdd(competitionId: number, dropTaken: (taken: number[]) => void, forgetSkill: () => void) {
  const addToCart = useCart((s) => s.add);
  return async (numbers: number[], quantity: number): Promise<boolean> => {
    try {
      await addToCart({ competitionId, quantity, selectedNumbers: numbers });
      return true;
    } catch (err) {
      reportAddFailure(err, { dropTaken, forgetSkill });
      return false;
    }
  };
}

/** 'Select Lucky Numbers' and 'Buy Now', and the phone's buy bar while they are out of view. */
function BuyButtons({
  barSlot,
  ticketPrice,
  bundles,
  quantity,
  ready,
  buying,
  onStart,
}: {
  barSlot: HTMLElement | null;
  ticketPrice: number;
  bundles: readonly Bundle[];
  quantity: number;
  ready: boolean;
  buying: boolean;
  onStart: (action: Action) => void;
}) {
  const buttons = useRef<HTMLDivElement>(null);
  return (
    <>
      <Buttons ref={buttons}>
        <Button type="button" $variant="secondary" onClick={() => onStart('select')} disabled={!ready}>
          Select Lucky Numbers
        </Button>
        <Button type="button" onClick={() => onStart('buy')} disabled={!ready || buying}>
          {buying ? 'Adding...' : 'Buy Now'}
        </Button>
      </Buttons>
      <StickyBuyBar
        slot={barSlot}
        panelButtons={buttons}
        ticketPrice={ticketPrice}
        bundles={bundles}
        quantity={quantity}
        onBuy={() => onStart('buy')}
        disabled={!ready}
        buying={buying}
      />
    </>
  );
}

/**
 * The detail page's buying controls: quantity, 'Select Lucky Numbers' and 'Buy Now', with the
 * spec's flow (skill question once per page visit, then the selector or a Lucky Dip).
 */
export function PurchasePanel({
  competition,
  live,
  barSlot = null,
}: {
  competition: PublicCompetition;
  live: LiveCompetition | undefined;
  /** The page's slot for the phone's buy bar (StickyBuyBar.tsx BuyBarSlot). */
  barSlot?: HTMLElement | null;
}) {
  const [, navigate] = useLocation();
  const [quantity, setQuantity] = useState(1);
  const [selection, setSelection] = useState<number[]>([]);
  const [selectorOpen, setSelectorOpen] = useState(false);
  const [added, setAdded] = useState<number | null>(null);
  const [buying, setBuying] = useState(false);
  // On a page the server rendered these buttons paint before their code runs; until this part is
  // hydrated a press would be lost, so they say they cannot be used yet (web/ssr/seed.ts).
  const hydrated = useHydrated();
  // On a break, or unable to afford one ticket under the spending limit: said here, up front.
  const block = usePlayBlock(poundsToPence(competition.ticketPrice));
  const usable = hydrated && !block;
  const bundles = bundlesToPence(competition.bundles ?? []);

  const add = useAdd(
    competition.id,
    (taken) => setSelection((s) => s.filter((n) => !taken.includes(n))),
    () => skill.forget(),
  );

  const buyNow = async () => {
    if (selection.length > 0 && selection.length !== quantity) {
      openSelector(); // numbers chosen for a different quantity: ask again (spec)
      return;
    }
    if (selection.length === 0 && notEnoughFree(live, quantity)) return;
    setBuying(true);
    const ok = await add(selection, quantity);
    setBuying(false);
    if (!ok) return;
    toast({
      title: 'Added to Cart',
      description: `${quantity} ${plural(quantity, 'ticket')} added to your cart.`,
    });
    setSelection([]);
    navigate('/cart');
  };

  const openSelector = (picked?: number) => {
    // The selector starts empty each time it opens (spec), or with the number clicked on the grid.
    setSelection(picked === undefined ? [] : [picked]);
    setSelectorOpen(true);
  };

  const holdOne = async (n: number) => (await add([n], 1)) && setAdded(1);
  const skill = useSkillGate<Action>(competition.id, (action) =>
    typeof action === 'object'
      ? void holdOne(action.hold)
      : action === 'buy'
        ? void buyNow()
        : openSelector(action === 'select' ? undefined : action),
  );

  // A click on an available number of the page's entries grid (not while play is blocked).
  useGridPicks(competition.id, (n) => usable && skill.start(n));

  const confirmSelection = async () => {
    if (!(await add(selection, quantity))) return;
    setSelectorOpen(false);
    setSelection([]);
    setAdded(quantity);
  };

  return (
    <>
      {block && <PlayBlockBanner block={block} />}
      <FreedNumbers competitionId={competition.id} onHold={(n) => usable && skill.start({ hold: n })} />
      <BundleOffers bundles={bundles} />
      <QuantityStepper
        quantity={quantity}
        onChange={setQuantity}
        ticketPrice={competition.ticketPrice}
        bundles={bundles}
        perPersonCap={competition.maxTicketsPerUser}
        disabled={!usable}
      />
      <BuyButtons
        barSlot={barSlot}
        ticketPrice={competition.ticketPrice}
        bundles={bundles}
        quantity={quantity}
        ready={usable}
        buying={buying}
        onStart={skill.start}
      />

      <SkillQuestionDialog
        open={skill.asking}
        competitionId={competition.id}
        onPassed={skill.onPassed}
        onClose={skill.cancel}
      />
      <NumberSelector
        open={selectorOpen}
        onClose={() => setSelectorOpen(false)}
        title={competition.title}
        live={live}
        quantity={quantity}
        onQuantityChange={setQuantity}
        selection={selection}
        onSelectionChange={setSelection}
        onConfirm={confirmSelection}
        perPersonCap={competition.maxTicketsPerUser}
        ticketPrice={competition.ticketPrice}
        bundles={bundles}
      />
      <AddedToCartDialog added={added} title={competition.title} onClose={() => setAdded(null)} />
    </>
  );
}
