import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { ADMIN_QUEUE_ROUTES } from '../../../contract/apiQueue';
import { ADMIT_RATE_MAX, ADMIT_RATE_MIN, type AdminQueueView } from '../../../contract/launchQueue';
import { call } from '../../api/call';
import { messageOf } from '../../api/client';
import { getSocket } from '../../live/socket';
import { toast } from '../../stores/toast';
import { Button } from '../ui/Button';
import { Control } from './AdminUi';

// A queued launch's queue, live (docs/draws.md#launch-queue): read once, then each `admin:queue`
// the tick pushes to the admins' room; the admission rate can be raised here.

const Numbers = styled.dl`
  display: grid;
  grid-template-columns: auto 1fr;
  gap: ${({ theme }) => theme.space.xs} ${({ theme }) => theme.space.md};
  margin: 0 0 ${({ theme }) => theme.space.sm};
  dt { font-weight: 600; }
  dd { margin: 0; }
`;

const RateForm = styled.form`
  display: flex;
  gap: ${({ theme }) => theme.space.sm};
  align-items: end;
`;

function useQueueView(competitionId: number) {
  const [view, setView] = useState<AdminQueueView>();
  useEffect(() => {
    let live = true;
    const onQueue = (v: AdminQueueView) => {
      if (live && v.competitionId === competitionId) setView(v);
    };
    const socket = getSocket();
    socket.on('admin:queue', onQueue);
    void call(ADMIN_QUEUE_ROUTES.adminQueue, { params: { id: competitionId } })
      .then((v) => live && setView(v))
      .catch(() => undefined);
    return () => {
      live = false;
      socket.off('admin:queue', onQueue);
    };
  }, [competitionId]);
  return [view, setView] as const;
}

export function LaunchQueuePanel({ competitionId }: { competitionId: number }) {
  const [view, setView] = useQueueView(competitionId);
  const [rate, setRate] = useState('');
  const [saving, setSaving] = useState(false);
  if (!view) return <p>Loading the queue…</p>;
  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    setSaving(true);
    try {
      setView(
        await call(ADMIN_QUEUE_ROUTES.setAdmitRate, {
          params: { id: competitionId },
          body: { admitPerSecond: Number(rate) },
        }),
      );
      setRate('');
      toast({ title: 'Admission rate changed', variant: 'success' });
    } catch (err) {
      toast({
        title: 'Could not change the rate',
        description: messageOf(err, 'Please try again.'),
        variant: 'destructive',
      });
    } finally {
      setSaving(false);
    }
  };
  return (
    <div data-testid="launch-queue-panel">
      <Numbers>
        <dt>Waiting</dt>
        <dd data-testid="queue-waiting-count">{view.waiting}</dd>
        <dt>Let in</dt>
        <dd>{view.admitted}</dd>
        <dt>Admission rate</dt>
        <dd>{view.admitPerSecond} a second</dd>
        <dt>Holds</dt>
        <dd>{view.holdsPerSecond.toFixed(1)} a second</dd>
      </Numbers>
      <RateForm onSubmit={save}>
        <Control>
          <label htmlFor="queue-rate">New rate (a second)</label>
          <input
            id="queue-rate"
            type="number"
            min={ADMIT_RATE_MIN}
            max={ADMIT_RATE_MAX}
            value={rate}
            onChange={(e) => setRate(e.target.value)}
            required
          />
        </Control>
        <Button type="submit" disabled={saving}>
          Set rate
        </Button>
      </RateForm>
    </div>
  );
}
