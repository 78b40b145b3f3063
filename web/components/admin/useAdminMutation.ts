import { useState } from 'react';
import { messageOf } from '../../api/client';
import { toast } from '../../stores/toast';

export interface MutationToasts<T> {
  /** The success toast, built from the call's answer. */
  success: (result: T) => { title: string; description?: string };
  /** The failure toast's title, and the text shown when the server's answer has no message. */
  failureTitle: string;
  fallback: string;
}

/**
 * An admin action with the screens' common shape: `busy` while it runs, a success toast, or a
 * destructive toast with the server's message; `settle` runs either way (closing the dialog).
 * Resolves to the answer, or undefined when it failed.
 */
export function useAdminMutation() {
  const [busy, setBusy] = useState(false);
  async function run<T>(call: () => Promise<T>, toasts: MutationToasts<T>, settle?: () => void) {
    setBusy(true);
    try {
      const result = await call();
      toast({ ...toasts.success(result), variant: 'success' });
      return result;
    } catch (err) {
      toast({
        title: toasts.failureTitle,
        description: messageOf(err, toasts.fallback),
        variant: 'destructive',
      });
      return undefined;
    } finally {
      setBusy(false);
      settle?.();
    }
  }
  return { busy, run };
}
