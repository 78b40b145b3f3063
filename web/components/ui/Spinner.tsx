import styled, { keyframes } from 'styled-components';

const spin = keyframes`to { transform: rotate(360deg); }`;

const Wrap = styled.div`
  display: flex;
  justify-content: center;
  padding: ${({ theme }) => theme.space.xxl};
`;

const Ring = styled.div`
  width: 40px;
  height: 40px;
  border: 4px solid ${({ theme }) => theme.colors.border};
  border-top-color: ${({ theme }) => theme.colors.brand};
  border-radius: 50%;
  animation: ${spin} 0.8s linear infinite;
`;

export function Spinner({ label = 'Loading' }: { label?: string }) {
  return (
    <Wrap role="status" aria-label={label}>
      <Ring />
    </Wrap>
  );
}

const SmallRing = styled.span`
  display: inline-block;
  width: 18px;
  height: 18px;
  border: 3px solid ${({ theme }) => theme.colors.border};
  border-top-color: ${({ theme }) => theme.colors.brand};
  border-radius: 50%;
  animation: ${spin} 0.8s linear infinite;
  vertical-align: middle;
`;

/** A small spinner inside a line of text or a control. */
export function InlineSpinner({ label = 'Updating' }: { label?: string }) {
  return <SmallRing role="status" aria-label={label} />;
}
