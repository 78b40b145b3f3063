import { useRef, useState } from 'react';
import styled from 'styled-components';
import { useLocation } from 'wouter';
import type { PublicCompetition } from '../../../contract/competitions';
import { freeCount, type LiveCompetition } from '../../live/competitionStore';
import { useHydrated } from '../../ssr/seed';
import { useCart } from '../../stores/cart';
import { toast } from '../../stores/toast';
import { Button } from '../ui/Button';
import { AddedToCartDialog } from './AddedToCartDialog';
import { reportAddFailure } from './addFailure';
import { NumberSelector } from './NumberSelector';
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

type Action = 'select' | 'buy';

/** 'Select Lucky Numbers' and 'Buy Now', and the phone's buy bar while they are out of view. */
function BuyButtons({
  barSlot,
  ticketPrice,
  quantity,
  ready,
  buying,
  onStart,
}: {
  barSlot: HTMLElement | null;
  ticketPrice: number;
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
  const addToCart = useCart((s) => s.add);
  const [quantity, setQuantity] = useState(1);
  const [selection, setSelection] = useState<number[]>([]);
  const [selectorOpen, setSelectorOpen] = useState(false);
  const [added, setAdded] = useState<number | null>(null);
  const [buying, setBuying] = useState(false);
  // On a page the server rendered these buttons paint before their code runs; until this part is
  // hydrated a press would be lost, so they say they cannot be used yet (web/ssr/seed.ts).
  const hydrated = useHydrated();

  /** Adds to the cart; on failure explains why (and keeps what can be kept) and returns false. */
  const add = async (numbers: number[]): Promise<boolean> => {
    try {
      await addToCart({ competitionId: competition.id, quantity, selectedNumbers: numbers });
      return true;
    } catch (err) {
      reportAddFailure(err, {
        dropTaken: (taken) => setSelection((s) => s.filter((n) => !taken.includes(n))),
        forgetSkill: () => skill.forget(),
      });
      return false;
    }
  };

  const buyNow = async () => {
    if (selection.length > 0 && selection.length !== quantity) {
      openSelector(); // numbers chosen for a different quantity: ask again (spec)
      return;
    }
    if (selection.length === 0 && live && freeCount(live) < quantity) {
      toast({
        title: 'Not enough tickets available',
        description: `Only ${freeCount(live)} tickets are available.`,
        variant: 'destructive',
      });
      return;
    }
    setBuying(true);
    const ok = await add(selection);
    setBuying(false);
    if (!ok) return;
    toast({
      title: 'Added to Cart',
      description: `${quantity} ${plural(quantity, 'ticket')} added to your cart.`,
    });
    setSelection([]);
    navigate('/cart');
  };

  const openSelector = () => {
    setSelection([]); // the selector starts empty each time it opens (spec)
    setSelectorOpen(true);
  };

  const skill = useSkillGate<Action>((action) => (action === 'select' ? openSelector() : void buyNow()));

  const confirmSelection = async () => {
    if (!(await add(selection))) return;
    setSelectorOpen(false);
    setSelection([]);
    setAdded(quantity);
  };

  return (
    <>
      <QuantityStepper
        quantity={quantity}
        onChange={setQuantity}
        ticketPrice={competition.ticketPrice}
        perPersonCap={competition.maxTicketsPerUser}
        disabled={!hydrated}
      />
      <BuyButtons
        barSlot={barSlot}
        ticketPrice={competition.ticketPrice}
        quantity={quantity}
        ready={hydrated}
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
      />
      <AddedToCartDialog added={added} title={competition.title} onClose={() => setAdded(null)} />
    </>
  );
}
