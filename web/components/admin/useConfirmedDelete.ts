import { useState } from 'react';
import { type MutationToasts, useAdminMutation } from './useAdminMutation';

/**
 * Delete with an "Are you sure?" first: `ask(row)` opens the dialog, confirming deletes, toasts
 * the outcome (the server's message on failure), closes the dialog either way and refreshes the
 * list only when the delete went through. Spread `dialog` into a ConfirmDialog.
 */
export function useConfirmedDelete<T>({
  remove,
  toasts,
  refresh,
}: {
  remove: (row: T) => Promise<unknown>;
  toasts: Omit<MutationToasts<unknown>, 'success'> & {
    success: (row: T) => { title: string; description?: string };
  };
  refresh: () => void;
}) {
  const [target, setTarget] = useState<T>();
  const { busy, run } = useAdminMutation();
  const close = () => setTarget(undefined);

  const confirm = async () => {
    if (target === undefined) return;
    const row = target;
    let deleted = false;
    await run(
      async () => {
        await remove(row);
        deleted = true;
      },
      { ...toasts, success: () => toasts.success(row) },
      close,
    );
    if (deleted) refresh();
  };

  return {
    /** The row waiting for confirmation. */
    target,
    ask: (row: T) => setTarget(row),
    busy,
    dialog: { open: target !== undefined, busy, onConfirm: () => void confirm(), onClose: close },
  };
}
