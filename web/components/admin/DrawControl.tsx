import { useState } from 'react';
import styled from 'styled-components';
import { DRAW_ROUTES } from '../../../contract/apiDraws';
import type { AdminDrawStatus } from '../../../contract/draw';
import { call } from '../../api/call';
import { messageOf } from '../../api/client';
import { toast } from '../../stores/toast';
import { Button } from '../ui/Button';
import { ErrorBox } from '../ui/Form';
import { StatusBadge } from './AdminUi';
import { ConfirmDialog } from './ConfirmDialog';

const STATE_LABELS: Record<AdminDrawStatus['state'], { label: string; tone: string }> = {
  open: { label: 'Open', tone: 'active' },
  awaiting_payments: { label: 'Awaiting payments', tone: 'pending' },
  ready: { label: 'Ready to draw', tone: 'admin' },
  waiting_for_beacon: { label: 'Waiting for beacon', tone: 'pending' },
  no_sales: { label: 'Nothing to draw', tone: 'ended' },
  drawn: { label: 'Drawn', tone: 'completed' },
};

const Box = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.sm};
  justify-items: start;
`;

const Status = styled.p`
  margin: 0;
  display: grid;
  gap: ${({ theme }) => theme.space.xxs};
  justify-items: start;
`;

/**
 * The draw's state with the server's reason, and 'Draw now' once the competition is closed and
 * ready (the server re-checks everything and answers 409 with its reason otherwise).
 */
export function DrawControl({
  competition,
  status,
  onDrawn,
}: {
  competition: { id: number; title: string; ticketsSold: number };
  status: AdminDrawStatus;
  onDrawn: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string>();
  const { label, tone } = STATE_LABELS[status.state];

  const draw = async () => {
    setBusy(true);
    setRefusal(undefined);
    try {
      // 202: the beacon round is not out yet; the draw follows it on its own.
      const result = await call(DRAW_ROUTES.draw, { params: { id: competition.id } });
      toast(
        'scheduled' in result
          ? { title: 'Draw scheduled', description: result.message, variant: 'success' }
          : {
              title: 'Competition drawn',
              description: `Winning number ${result.winningNumber}: ${result.winnerName}`,
              variant: 'success',
            },
      );
    } catch (err) {
      const message = messageOf(err, 'The draw could not be made.');
      setRefusal(message);
      toast({ title: 'Draw refused', description: message, variant: 'destructive' });
    } finally {
      setBusy(false);
      setConfirming(false);
      onDrawn(); // either way the state has moved on (drawn, or a reason to show)
    }
  };

  return (
    <Box data-testid="draw-control">
      <Status>
        <StatusBadge $status={tone} data-testid="draw-state">
          {label}
        </StatusBadge>
        <span data-testid="draw-status-message">{status.message}</span>
        {status.beaconError && (
          <ErrorBox role="alert" data-testid="draw-beacon-error">
            {status.beaconError}
          </ErrorBox>
        )}
      </Status>
      {refusal && <ErrorBox role="alert">{refusal}</ErrorBox>}
      {status.state === 'ready' && (
        <Button type="button" $variant="danger" onClick={() => setConfirming(true)}>
          Draw now
        </Button>
      )}
      <ConfirmDialog
        open={confirming}
        title="Draw now"
        confirmLabel="Draw now"
        cancelLabel="Not yet"
        busy={busy}
        onConfirm={() => void draw()}
        onClose={() => setConfirming(false)}
        testId="draw-dialog"
      >
        <p>
          Draw “{competition.title}” from its {competition.ticketsSold.toLocaleString('en-GB')} sold tickets?
          Everyone watching the competition page sees the result at once, and the winner is e-mailed. A draw
          cannot be undone.
        </p>
      </ConfirmDialog>
    </Box>
  );
}
