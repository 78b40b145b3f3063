import { useEffect, useState } from 'react';
import styled from 'styled-components';
import type { CartItemView } from '../../../contract/cart';
import { messageOf } from '../../api/client';
import { serverNow } from '../../live/clock';
import { useCart } from '../../stores/cart';
import { toast } from '../../stores/toast';
import { media } from '../../theme/theme';
import { Button } from '../ui/Button';

// A minute before a hold runs out (server clock), on every page: 'Keep my numbers' starts its time
// again, once per hold; the server decides whether it may (api/tickets/keepHold.ts). Shown in the
// sticky header's flow, like the toast, so it covers nothing.

export const KEEP_NOTICE_MS = 60_000;

const Box = styled.section`
  margin: 0 ${({ theme }) => theme.space.xs} ${({ theme }) => theme.space.xs};
  ${media.md} { max-width: ${({ theme }) => theme.maxWidth}; margin: ${({ theme }) => theme.space.xs} auto; }
  padding: ${({ theme }) => theme.space.sm} ${({ theme }) => theme.space.md};
  border: 1px solid ${({ theme }) => theme.colors.warning};
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme }) => theme.colors.warningBg};
  color: ${({ theme }) => theme.colors.text};
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${({ theme }) => theme.space.sm};
  p { margin: 0; flex: 1 1 14rem; overflow-wrap: anywhere; }
  .error { flex-basis: 100%; color: ${({ theme }) => theme.colors.danger}; font-weight: 600; }
`;

/** The first line not yet kept whose hold ends within the minute, with its milliseconds left. */
function dueLine(items: CartItemView[], dismissed: Set<number>, now: number) {
  for (const item of items) {
    const left = Date.parse(item.expiresAt) - now;
    if (!item.kept && !dismissed.has(item.id) && left > 0 && left <= KEEP_NOTICE_MS) return { item, left };
  }
  return undefined;
}

export function HoldExpiryNotice() {
  const items = useCart((s) => s.items);
  const keep = useCart((s) => s.keep);
  const [now, setNow] = useState(() => serverNow());
  const [dismissed, setDismissed] = useState(() => new Set<number>());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  useEffect(() => {
    if (!items.length) return;
    setNow(serverNow());
    const timer = setInterval(() => setNow(serverNow()), 1000);
    return () => clearInterval(timer);
  }, [items]);
  const due = dueLine(items, dismissed, now);
  if (!due) return null;
  const { item, left } = due;
  const seconds = Math.ceil(left / 1000);
  const onKeep = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await keep(item.id);
      toast({
        title: 'Numbers kept',
        description: `Your numbers for ${item.competition.title} are held for longer.`,
        variant: 'success',
      });
    } catch (err) {
      setError(messageOf(err, 'Your numbers could not be kept. Please try again.'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box aria-labelledby="hold-notice-text" data-testid="hold-notice">
      <p id="hold-notice-text">
        Your numbers for {item.competition.title} are held for{' '}
        <span role="timer">
          {Math.floor(seconds / 60)}:{String(seconds % 60).padStart(2, '0')}
        </span>{' '}
        more.
      </p>
      <Button type="button" onClick={onKeep} disabled={busy}>
        {busy ? 'Keeping...' : 'Keep my numbers'}
      </Button>
      <Button type="button" $variant="ghost" onClick={() => setDismissed((d) => new Set(d).add(item.id))}>
        Dismiss
      </Button>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </Box>
  );
}
