import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { useConnection } from '../../live/connection';

const Bar = styled.div`
  position: fixed;
  top: 0;
  left: 0;
  right: 0;
  z-index: 1000;
  padding: ${({ theme }) => theme.space.xs} ${({ theme }) => theme.space.md};
  background: ${({ theme }) => theme.colors.warningBg};
  border-bottom: 2px solid ${({ theme }) => theme.colors.warning};
  color: ${({ theme }) => theme.colors.text};
  font-size: ${({ theme }) => theme.fontSizes.sm};
  font-weight: 600;
  text-align: center;
`;

/** A drop shorter than this (a sign-in reconnecting with its new cookie) is not worth a banner. */
const GRACE_MS = 1000;

/**
 * 'Reconnecting…' while the live connection is down: numbers, counts and countdowns shown meanwhile
 * may be out of date, and the grids mark theirs so until their fresh snapshots are in.
 */
export function ReconnectingBanner() {
  const dropped = useConnection((s) => s.dropped);
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!dropped) {
      setShown(false);
      return;
    }
    const timer = setTimeout(() => setShown(true), GRACE_MS);
    return () => clearTimeout(timer);
  }, [dropped]);
  if (!shown) return null;
  return (
    <Bar role="status" data-testid="reconnecting-banner">
      Reconnecting… Live numbers may be out of date until we're back.
    </Bar>
  );
}
