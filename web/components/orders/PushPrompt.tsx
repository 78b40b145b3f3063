import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { PUSH_ASK_TEXT } from '../../../contract/push';
import { messageOf } from '../../api/client';
import { pushAvailable, pushSubscribed, subscribeToPush } from '../../live/webPush';
import { Button } from '../ui/Button';

// After a purchase, on the confirmation page: "Get a notification when this is drawn?"
// (docs/product.md#web-push). Shown only where push works, not refused, not already subscribed,
// and not dismissed in this browser; the permission prompt comes only from the click.

const DISMISSED_KEY = 'wcp-push-ask-dismissed';

const Box = styled.section`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space.sm};
  padding: ${({ theme }) => theme.space.md};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.md};
  p { margin: 0; font-weight: 600; }
  div { display: flex; gap: ${({ theme }) => theme.space.sm}; }
`;

type State = 'hidden' | 'asking' | 'working' | 'done' | 'refused' | 'failed';

export function PushPrompt() {
  const [state, setState] = useState<State>('hidden');
  const [error, setError] = useState('');
  useEffect(() => {
    if (!pushAvailable() || localStorage.getItem(DISMISSED_KEY)) return;
    let live = true;
    pushSubscribed()
      .then((already) => live && !already && setState('asking'))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  if (state === 'hidden') return null;
  const yes = () => {
    setState('working');
    subscribeToPush()
      .then((granted) => setState(granted ? 'done' : 'refused'))
      .catch((err) => {
        setError(messageOf(err, 'We could not turn on notifications. Please try again.'));
        setState('failed');
      });
  };
  const no = () => {
    localStorage.setItem(DISMISSED_KEY, '1');
    setState('hidden');
  };
  return (
    <Box aria-label="Notifications" data-testid="push-prompt">
      {state === 'done' ? (
        <p role="status">You will get a notification when it is drawn.</p>
      ) : state === 'refused' ? (
        <p role="status">Notifications are blocked in this browser, so we cannot notify you here.</p>
      ) : (
        <>
          <p>{PUSH_ASK_TEXT}</p>
          {state === 'failed' && <p role="alert">{error}</p>}
          <div>
            <Button type="button" onClick={yes} disabled={state === 'working'}>
              Notify me
            </Button>
            <Button type="button" $variant="ghost" onClick={no}>
              No thanks
            </Button>
          </div>
        </>
      )}
    </Box>
  );
}
