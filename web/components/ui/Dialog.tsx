import { type ReactNode, useEffect, useId, useRef } from 'react';
import styled from 'styled-components';
import { DialogToastSlot } from '../layout/Toaster';

const Native = styled.dialog<{ $wide: boolean }>`
  border: 0;
  border-radius: ${({ theme }) => theme.radii.lg};
  box-shadow: ${({ theme }) => theme.shadows.raised};
  padding: ${({ theme }) => theme.space.lg};
  width: min(${({ $wide }) => ($wide ? '760px' : '440px')}, calc(100vw - 24px));
  max-height: calc(100dvh - 24px);
  &::backdrop { background: rgba(6, 26, 51, 0.55); }
  h2 { margin: 0 0 ${({ theme }) => theme.space.xs}; color: ${({ theme }) => theme.colors.brand}; }
`;

/**
 * A modal on the native <dialog> element: focus is kept inside, Escape closes it, and the page
 * behind is inert, without a library.
 */
export function Dialog({
  open,
  onClose,
  title,
  children,
  wide = false,
  testId,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  /** Room for a grid (the number selector). */
  wide?: boolean;
  testId?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // Report only closes the person made (Escape): a close because `open` turned false is the
  // parent's own doing, and its late event must not undo a switch to another dialog.
  const openRef = useRef(open);
  openRef.current = open;
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (open && !el.open) el.showModal();
    if (!open && el.open) el.close();
  }, [open]);
  return (
    <Native
      ref={ref}
      onClose={() => {
        if (openRef.current) onClose();
      }}
      aria-labelledby={titleId}
      $wide={wide}
      data-testid={testId}
    >
      <DialogToastSlot active={open} />
      {open && (
        <>
          <h2 id={titleId}>{title}</h2>
          {children}
        </>
      )}
    </Native>
  );
}
