import { useCallback, useState } from 'react';
import styled from 'styled-components';
import { useLocation } from 'wouter';
import { MAX_TICKETS_PER_PURCHASE, type PublicCompetition } from '../../../contract/competitions';
import { ERROR_CODES } from '../../../contract/errors';
import { formatPounds } from '../../../contract/money';
import { ApiError, takenNumbersOf } from '../../api/client';
import { freeCount, type LiveCompetition } from '../../live/competitionStore';
import { useHydrated } from '../../ssr/seed';
import { useCart } from '../../stores/cart';
import { toast } from '../../stores/toast';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { NumberSelector } from './NumberSelector';
import { SkillQuestionDialog } from './SkillQuestionDialog';
import { listNumbers, plural } from './selection';

const Stepper = styled.div`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space.sm};
  flex-wrap: wrap;
  button {
    width: 44px;
    height: 44px;
    border-radius: ${({ theme }) => theme.radii.md};
    border: 1px solid ${({ theme }) => theme.colors.border};
    background: ${({ theme }) => theme.colors.surface};
    font-size: 1.25rem;
    cursor: pointer;
  }
  button:disabled { opacity: 0.4; cursor: not-allowed; }
  output { min-width: 2ch; text-align: center; font-weight: 700; font-size: ${({ theme }) => theme.fontSizes.lg}; }
  small { color: ${({ theme }) => theme.colors.textMuted}; }
`;

const Buttons = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.sm};
  grid-template-columns: 1fr 1fr;
`;

const DialogActions = styled.div`
  display: flex;
  flex-wrap: wrap;
  justify-content: flex-end;
  gap: ${({ theme }) => theme.space.sm};
`;

type Action = 'select' | 'buy';

/**
 * The detail page's buying controls: quantity, 'Select Lucky Numbers' and 'Buy Now', with the
 * spec's flow (skill question once per page visit, then the selector or a Lucky Dip).
 */
export function PurchasePanel({
  competition,
  live,
}: {
  competition: PublicCompetition;
  live: LiveCompetition | undefined;
}) {
  const [, navigate] = useLocation();
  const addToCart = useCart((s) => s.add);
  const [quantity, setQuantity] = useState(1);
  const [selection, setSelection] = useState<number[]>([]);
  const [skillPassed, setSkillPassed] = useState(false);
  const [askingFor, setAskingFor] = useState<Action | null>(null);
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
      const taken = takenNumbersOf(err);
      if (taken?.length) {
        setSelection((s) => s.filter((n) => !taken.includes(n)));
        toast({
          title: 'Numbers no longer available',
          description: `${plural(taken.length, 'Number')} ${listNumbers(taken)} ${taken.length === 1 ? 'was' : 'were'} just taken by another user. Your other numbers are still selected.`,
          variant: 'destructive',
        });
      } else if (err instanceof ApiError && err.code === ERROR_CODES.notEnoughTickets) {
        toast({
          title: 'Not enough tickets available',
          description: err.serverMessage,
          variant: 'destructive',
        });
      } else if (err instanceof ApiError && err.status === 403) {
        setSkillPassed(false); // the session forgot the answer (e.g. it expired): ask again
        toast({
          title: 'Error',
          description: err.serverMessage ?? 'Please answer the skill question first',
          variant: 'destructive',
        });
      } else if (err instanceof ApiError && err.status < 500 && err.serverMessage) {
        toast({ title: 'Error', description: err.serverMessage, variant: 'destructive' });
      } else {
        toast({
          title: 'Error',
          description: 'Failed to add item to cart. Please try again.',
          variant: 'destructive',
        });
      }
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

  const run = (action: Action) => (action === 'select' ? openSelector() : void buyNow());

  const start = (action: Action) => {
    if (skillPassed) run(action);
    else setAskingFor(action);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: continues the action asked for
  const onPassed = useCallback(() => {
    const action = askingFor;
    setSkillPassed(true);
    setAskingFor(null);
    if (action) run(action);
  }, [askingFor]);

  const confirmSelection = async () => {
    if (!(await add(selection))) return;
    setSelectorOpen(false);
    setSelection([]);
    setAdded(quantity);
  };

  return (
    <>
      <Stepper>
        <button
          type="button"
          aria-label="Fewer tickets"
          disabled={!hydrated || quantity <= 1}
          onClick={() => setQuantity((q) => Math.max(1, q - 1))}
        >
          −
        </button>
        <output aria-live="polite" aria-label="Tickets">
          {quantity}
        </output>
        <button
          type="button"
          aria-label="More tickets"
          disabled={!hydrated || quantity >= MAX_TICKETS_PER_PURCHASE}
          onClick={() => setQuantity((q) => Math.min(MAX_TICKETS_PER_PURCHASE, q + 1))}
        >
          +
        </button>
        <span>
          Total: <strong data-testid="total-price">{formatPounds(quantity * competition.ticketPrice)}</strong>
        </span>
        <small>Max {MAX_TICKETS_PER_PURCHASE} per purchase</small>
        <small data-testid="per-person-cap">Max {competition.maxTicketsPerUser} tickets per person</small>
      </Stepper>
      <Buttons>
        <Button type="button" $variant="secondary" onClick={() => start('select')} disabled={!hydrated}>
          Select Lucky Numbers
        </Button>
        <Button type="button" onClick={() => start('buy')} disabled={!hydrated || buying}>
          {buying ? 'Adding...' : 'Buy Now'}
        </Button>
      </Buttons>

      <SkillQuestionDialog
        open={askingFor !== null}
        competitionId={competition.id}
        onPassed={onPassed}
        onClose={() => setAskingFor(null)}
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
      <Dialog
        open={added !== null}
        onClose={() => setAdded(null)}
        title="Added to Cart!"
        testId="added-dialog"
      >
        <p>
          {added} {plural(added ?? 0, 'ticket')} for {competition.title} {added === 1 ? 'has' : 'have'} been
          added to your cart.
        </p>
        <DialogActions>
          <Button type="button" $variant="ghost" onClick={() => setAdded(null)}>
            Continue Shopping
          </Button>
          <Button type="button" onClick={() => window.location.assign('/cart')}>
            View Cart
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
