import type { ReactNode } from 'react';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { DialogActions } from './AdminUi';

/** "Are you sure?" before something that cannot be undone (delete, cancel, reset). */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel = 'Cancel',
  busy,
  onConfirm,
  onClose,
  testId,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** The button that closes without acting. */
  cancelLabel?: string;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
  testId?: string;
}) {
  return (
    <Dialog open={open} onClose={onClose} title={title} {...(testId ? { testId } : {})}>
      {children}
      <DialogActions>
        <Button type="button" $variant="ghost" onClick={onClose} disabled={busy}>
          {cancelLabel}
        </Button>
        <Button type="button" $variant="danger" onClick={onConfirm} disabled={busy}>
          {busy ? 'Working…' : confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
