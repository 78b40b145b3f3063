import { useEffect, useRef } from 'react';
import styled from 'styled-components';
import { useToast } from '../../stores/toast';

const Box = styled.div<{ $variant: string }>`
  position: fixed;
  inset: auto ${({ theme }) => theme.space.md} ${({ theme }) => theme.space.md} ${({ theme }) => theme.space.md};
  max-width: 420px;
  margin: 0 0 0 auto;
  overflow: visible;
  width: auto;
  height: auto;
  border: 0;
  z-index: 100;
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
 * Renders the one current toast (the store keeps at most one). It is a manual popover so it sits
 * in the top layer, above an open modal <dialog> (the number selector raises toasts while open).
 */
export function Toaster() {
  const current = useToast((s) => s.current);
  const dismiss = useToast((s) => s.dismiss);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof el.showPopover !== 'function' || !current) return;
    // Re-show so it lands above whatever entered the top layer since (a dialog opened later).
    if (el.matches(':popover-open')) el.hidePopover();
    el.showPopover();
  }, [current]);
  return (
    <div role="status" aria-live="polite">
      {current && (
        <Box ref={ref} popover="manual" $variant={current.variant} data-testid="toast">
          <div>
            <Title>{current.title}</Title>
            {current.description && <Description>{current.description}</Description>}
          </div>
          <Close type="button" aria-label="Dismiss notification" onClick={dismiss}>
            ×
          </Close>
        </Box>
      )}
    </div>
  );
}
