import type { ReactNode } from 'react';
import styled from 'styled-components';

const Wrap = styled.div`
  &[data-stale='true'] [data-number] { opacity: 0.55; }
`;

const Note = styled.p`
  margin: 0 0 ${({ theme }) => theme.space.xs};
  padding: ${({ theme }) => theme.space.xs} ${({ theme }) => theme.space.sm};
  border-left: 4px solid ${({ theme }) => theme.colors.warning};
  background: ${({ theme }) => theme.colors.warningBg};
  font-weight: 600;
`;

export const STALE_NOTE = 'Reconnecting: these numbers may be out of date.';

/**
 * A grid of live numbers that says when it may be out of date (the connection dropped, or a
 * change was missed): its cells fade and a note says so until the fresh snapshot is in.
 */
export function StaleNumbers({ stale, children }: { stale: boolean; children: ReactNode }) {
  return (
    <Wrap data-stale={stale ? 'true' : 'false'} data-testid="live-numbers">
      {stale && (
        <Note role="status" data-testid="stale-note">
          {STALE_NOTE}
        </Note>
      )}
      {children}
    </Wrap>
  );
}
