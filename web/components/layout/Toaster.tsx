import styled from 'styled-components';
import { useToast } from '../../stores/toast';

const Box = styled.div<{ $variant: string }>`
  position: fixed;
  right: ${({ theme }) => theme.space.md};
  bottom: ${({ theme }) => theme.space.md};
  left: ${({ theme }) => theme.space.md};
  max-width: 420px;
  margin-left: auto;
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

/** Renders the one current toast (the store keeps at most one). */
export function Toaster() {
  const current = useToast((s) => s.current);
  const dismiss = useToast((s) => s.dismiss);
  return (
    <div role="status" aria-live="polite">
      {current && (
        <Box $variant={current.variant} data-testid="toast">
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
