import { useCallback } from 'react';
import { useLocation } from 'wouter';
import { useCart } from '../../stores/cart';
import { useCheckout } from '../../stores/checkout';
import { toast } from '../../stores/toast';

/** Orders already finished in this tab: a second call (a re-run effect) does nothing. */
const finished = new Set<number>();

/**
 * A paid order: close the dialog, say so (spec toast), reload the cart from the server (it is
 * empty now) and show the order's confirmation page.
 */
export function useFinishCheckout() {
  const [, navigate] = useLocation();
  return useCallback(
    (orderId: number) => {
      if (finished.has(orderId)) return;
      finished.add(orderId);
      useCheckout.getState().close();
      toast({
        title: 'Payment successful!',
        description: 'Your purchase has been completed successfully.',
        variant: 'success',
      });
      void useCart.getState().load();
      navigate(`/confirmation/${orderId}`);
    },
    [navigate],
  );
}

/** A failed payment attempt: the form shows the message inline, the toast repeats it (spec). */
export const toastPaymentFailed = (message: string) =>
  toast({ title: 'Payment failed', description: message, variant: 'destructive' });
