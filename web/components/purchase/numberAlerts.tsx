import { useEffect } from 'react';
import styled from 'styled-components';
import * as v from 'valibot';
import { create } from 'zustand';
import type { TICKET_ROUTES } from '../../../contract/apiTickets';
import { NumbersFreedEventSchema } from '../../../contract/numberAlerts';
import { call } from '../../api/call';
import { ApiError } from '../../api/client';
import { type LiveCompetition, numberState } from '../../live/competitionStore';
import { useLiveRev } from '../../live/liveNumbers';
import { getSocket } from '../../live/socket';
import { toast } from '../../stores/toast';
import { Button } from '../ui/Button';

// "Tell me when a number frees up" (docs/product.md#number-alerts): the numbers this visitor waits
// on in one competition, and the ones freed since, told over `numbers:freed` to this visitor only.

interface AlertsState {
  /** Per competition: the numbers this visitor waits on, and those freed since. */
  waiting: Record<number, number[]>;
  freed: Record<number, number[]>;
  setWaiting: (competitionId: number, numbers: number[]) => void;
  onFreed: (competitionId: number, numbers: number[]) => void;
  forget: (competitionId: number, n: number) => void;
}

const NONE: number[] = [];
const without = (list: number[] | undefined, gone: number[]) =>
  (list ?? NONE).filter((n) => !gone.includes(n));

const useAlerts = create<AlertsState>((set) => ({
  waiting: {},
  freed: {},
  setWaiting: (id, numbers) => set((s) => ({ waiting: { ...s.waiting, [id]: numbers } })),
  onFreed: (id, numbers) =>
    set((s) => ({
      waiting: { ...s.waiting, [id]: without(s.waiting[id], numbers) },
      freed: { ...s.freed, [id]: [...new Set([...(s.freed[id] ?? NONE), ...numbers])].sort((a, b) => a - b) },
    })),
  forget: (id, n) => set((s) => ({ freed: { ...s.freed, [id]: without(s.freed[id], [n]) } })),
}));

/** Asks to be told when `n` is free; says what happened in a toast. */
async function waitFor(competitionId: number, n: number) {
  try {
    const view = await call<typeof TICKET_ROUTES.numberAlerts>(
      { method: 'POST', path: '/api/competitions/:id/number-alerts' },
      { params: { id: String(competitionId) }, body: { numbers: [n] } },
    );
    useAlerts.getState().setWaiting(competitionId, view.numbers);
    toast({ title: `We'll tell you when number ${n} is free`, description: 'Keep this page open.' });
  } catch (err) {
    toast({
      title: 'Could not set the alert',
      description: err instanceof ApiError ? (err.serverMessage ?? err.message) : 'Please try again.',
      variant: 'destructive',
    });
  }
}

/** `numbers:freed` for this competition, while the page is open: noted, with a toast. */
function useNumbersFreed(competitionId: number) {
  useEffect(() => {
    const socket = getSocket();
    const onFreed = (event: unknown) => {
      if (!v.is(NumbersFreedEventSchema, event) || event.competitionId !== competitionId) return;
      useAlerts.getState().onFreed(competitionId, event.numbers);
      const [first] = event.numbers;
      toast({
        title:
          event.numbers.length === 1
            ? `Number ${first} is free again`
            : `Numbers ${event.numbers.join(', ')} are free again`,
        description: 'Hold it now, before someone else does.',
        variant: 'success',
      });
    };
    socket.on('numbers:freed', onFreed);
    return () => {
      socket.off('numbers:freed', onFreed);
    };
  }, [competitionId]);
}

const Notices = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: ${({ theme }) => theme.space.xs};
`;

const Notice = styled.li`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${({ theme }) => theme.space.sm};
  padding: ${({ theme }) => theme.space.sm};
  border: 1px solid ${({ theme }) => theme.colors.success};
  border-radius: ${({ theme }) => theme.radii.md};
  p { margin: 0 auto 0 0; font-weight: 600; }
`;

/**
 * "Number 7 is free again", with a one-click hold, for each number freed since the visitor asked;
 * it listens for `numbers:freed` while mounted.
 */
export function FreedNumbers({
  competitionId,
  onHold,
}: {
  competitionId: number;
  onHold: (n: number) => void;
}) {
  useNumbersFreed(competitionId);
  const freed = useAlerts((s) => s.freed[competitionId] ?? NONE);
  const forget = useAlerts((s) => s.forget);
  return (
    <Notices aria-live="polite" data-testid="freed-numbers">
      {freed.map((n) => (
        <Notice key={n}>
          <p>Number {n} is free again</p>
          <Button
            type="button"
            onClick={() => {
              forget(competitionId, n);
              onHold(n);
            }}
          >
            Hold number {n}
          </Button>
          <Button
            type="button"
            $variant="ghost"
            onClick={() => forget(competitionId, n)}
            aria-label={`Dismiss number ${n}`}
          >
            Dismiss
          </Button>
        </Notice>
      ))}
    </Notices>
  );
}

const HeldNote = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${({ theme }) => theme.space.xs};
  margin: ${({ theme }) => `${theme.space.xs} 0`};
  p { margin: 0; }
`;

/**
 * Searching for one number someone else holds: say so, and offer to tell the visitor when it is
 * free. Kept live, so it goes the moment the number is free or sold.
 */
export function HeldNumberAlert({ live, search }: { live: LiveCompetition; search: string }) {
  useLiveRev(live, search !== '');
  const waiting = useAlerts((s) => s.waiting[live.competitionId] ?? NONE);
  const n = /^\d{1,9}$/.test(search.trim()) ? Number(search.trim()) : 0;
  if (n < 1 || n > live.totalTickets || numberState(live, n) !== 'reserved') return null;
  return (
    <HeldNote data-testid="held-number-alert">
      <p>Number {n} is held by someone else right now.</p>
      {waiting.includes(n) ? (
        <p>
          <strong>We'll tell you when it's free.</strong>
        </p>
      ) : (
        <Button type="button" $variant="secondary" onClick={() => void waitFor(live.competitionId, n)}>
          Tell me when {n} is free
        </Button>
      )}
    </HeldNote>
  );
}
