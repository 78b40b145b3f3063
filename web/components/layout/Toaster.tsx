import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import styled from 'styled-components';
import { create } from 'zustand';
import { useToast } from '../../stores/toast';
import { media } from '../../theme/theme';

// Where a toast may sit without covering an action (a fixed box over a phone's dialog hid
// 'Confirm Selection' and 'Pay Now'; one fixed in the bottom-right corner on a wide screen hid the
// cart's 'Continue Shopping'): inside the open dialog, in its flow above the title; with no dialog,
// in the sticky header's flow at every width (on the right from md up), so it takes its own room.

/** The slots of the open dialogs, newest last: a toast shows in the newest. */
const useDialogSlots = create<{ slots: HTMLElement[] }>(() => ({ slots: [] }));

const PageSlot = styled.div`
  ${media.md} {
    max-width: ${({ theme }) => theme.maxWidth};
    margin: 0 auto;
    display: flex;
    justify-content: flex-end;
    padding: 0 ${({ theme }) => theme.space.md};
    &:not(:empty) { padding-top: ${({ theme }) => theme.space.xs}; padding-bottom: ${({ theme }) => theme.space.xs}; }
  }
`;

const InDialog = styled.div`
  &:not(:empty) { margin-bottom: ${({ theme }) => theme.space.sm}; }
`;

const Box = styled.div<{ $variant: string }>`
  margin: 0 ${({ theme }) => theme.space.xs} ${({ theme }) => theme.space.xs};
  ${media.md} { margin: 0; width: min(420px, 100%); }
  ${InDialog} > & { margin: 0; }
  display: flex;
  gap: ${({ theme }) => theme.space.sm};
  align-items: flex-start;
  padding: ${({ theme }) => theme.space.md};
  border-radius: ${({ theme }) => theme.radii.md};
  box-shadow: ${({ theme }) => theme.shadows.raised};
  background: ${({ $variant, theme }) => ($variant === 'destructive' ? theme.colors.danger : theme.colors.surface)};
  color: ${({ $variant, theme }) => ($variant === 'destructive' ? theme.colors.textInverse : theme.colors.text)};
  border-left: 6px solid
    ${({ $variant, theme }) => ($variant === 'success' ? theme.colors.success : $variant === 'destructive' ? theme.colors.dangerBg : theme.colors.accent)};
`;

const Title = styled.p`
  margin: 0;
  font-weight: 700;
`;

const Description = styled.p`
  margin: 2px 0 0;
  font-size: ${({ theme }) => theme.fontSizes.sm};
`;

const Close = styled.button`
  margin-left: auto;
  border: 0;
  background: transparent;
  color: inherit;
  font-size: 1.2rem;
  cursor: pointer;
`;

/**
 * Where toasts go while this dialog is open. Always in the dialog (its live region must exist
 * before a message arrives to be announced); taken by the Toaster only while `active`.
 */
export function DialogToastSlot({ active }: { active: boolean }) {
  const [el, setEl] = useState<HTMLDivElement | null>(null);
  useEffect(() => {
    if (!active || !el) return;
    useDialogSlots.setState((s) => ({ slots: [...s.slots, el] }));
    return () => useDialogSlots.setState((s) => ({ slots: s.slots.filter((x) => x !== el) }));
  }, [active, el]);
  return <InDialog ref={setEl} role="status" aria-live="polite" />;
}

/**
 * Renders the one current toast (the store keeps at most one): in the newest open dialog's slot
 * (a modal dialog makes the rest of the page inert and sits above it), else in its own place.
 */
export function Toaster() {
  const current = useToast((s) => s.current);
  const dismiss = useToast((s) => s.dismiss);
  const dialogSlot = useDialogSlots((s) => s.slots.at(-1));
  const box = current && (
    <Box $variant={current.variant} data-testid="toast">
      <div>
        <Title>{current.title}</Title>
        {current.description && <Description>{current.description}</Description>}
      </div>
      <Close type="button" aria-label="Dismiss notification" onClick={dismiss}>
        ×
      </Close>
    </Box>
  );
  return (
    <>
      <PageSlot role="status" aria-live="polite">
        {!dialogSlot && box}
      </PageSlot>
      {dialogSlot && box && createPortal(box, dialogSlot)}
    </>
  );
}
