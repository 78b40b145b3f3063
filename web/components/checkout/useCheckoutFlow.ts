import { useEffect, useRef, useState } from 'react';
import { EMPTY_CART_MESSAGE } from '../../../contract/checkout';
import { useAuth } from '../../stores/auth';
import { useCart } from '../../stores/cart';
import { useCheckout } from '../../stores/checkout';
import { toast } from '../../stores/toast';
import type { CheckoutAuthStep } from './CheckoutAuthDialogs';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The cart page's way to payment: 'Proceed to Checkout' opens the payment dialog, or the sign-in
 * dialogs for a guest. After signing in or registering (here or on /checkout) it waits 1 s,
 * verifies the session, waits 0.5 s and opens the payment dialog (spec 'After registration').
 */
export function useCheckoutFlow() {
  const [authStep, setAuthStep] = useState<CheckoutAuthStep>(null);
  const resume = useCheckout((s) => s.resumeAfterAuth);
  const mounted = useRef(true);

  const proceed = (useCredit: boolean) => {
    if (useCart.getState().items.length === 0) {
      toast({ title: 'Checkout Error', description: EMPTY_CART_MESSAGE, variant: 'destructive' });
      return;
    }
    if (!useAuth.getState().user) {
      setAuthStep('login');
      return;
    }
    void useCheckout.getState().start(useCredit);
  };

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when a sign-in asks to resume
  useEffect(() => {
    if (!resume) return;
    useCheckout.getState().setResumeAfterAuth(false);
    void (async () => {
      await sleep(1000);
      const verified = await useAuth.getState().refresh();
      if (!mounted.current) return;
      if (!verified) {
        toast({
          title: 'Session Error',
          description: 'Please try logging in again to complete your purchase.',
          variant: 'destructive',
        });
        setAuthStep('login');
        return;
      }
      // The cart moved to the account at sign-in: read it again before paying for it.
      await useCart.getState().load();
      await sleep(500);
      // A guest could not tick the credit box, so payment starts without credit.
      if (mounted.current && useCart.getState().items.length > 0) proceed(false);
    })();
  }, [resume]);

  return {
    /** Which sign-in dialog is open (render CheckoutAuthDialogs with it). */
    authStep,
    setAuthStep,
    proceed,
    onAuthenticated: () => useCheckout.getState().setResumeAfterAuth(true),
  };
}
