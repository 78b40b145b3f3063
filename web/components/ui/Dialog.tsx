import { type ReactNode, useEffect, useRef } from 'react';
import styled from 'styled-components';

const Native = styled.dialog`
  border: 0;
  border-radius: ${({ theme }) => theme.radii.lg};
  box-shadow: ${({ theme }) => theme.shadows.raised};
  padding: ${({ theme }) => theme.space.lg};
  width: min(440px, calc(100vw - 32px));
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
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (open && !el.open) el.showModal();
    if (!open && el.open) el.close();
  }, [open]);
  return (
    <Native ref={ref} onClose={onClose} aria-labelledby="dialog-title">
      {open && (
        <>
          <h2 id="dialog-title">{title}</h2>
          {children}
        </>
      )}
    </Native>
  );
}
