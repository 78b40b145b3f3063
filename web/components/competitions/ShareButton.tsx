import styled from 'styled-components';
import { toast } from '../../stores/toast';
import { Button } from '../ui/Button';
import { WatchHeart } from './WatchHeart';

const Row = styled.div`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space.sm};
`;

/**
 * 'Share': the device's share sheet (Web Share API) where there is one, else the link copied to
 * the clipboard; said in a toast, with the link itself if even copying is refused.
 */
export async function shareLink(title: string, path: string): Promise<void> {
  const url = new URL(path, window.location.origin).href;
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share({ title, url });
      return;
    } catch (err) {
      if ((err as DOMException).name === 'AbortError') return; // the visitor closed the sheet
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    toast({ title: 'Link copied', description: url });
  } catch {
    toast({ title: 'Copy this link to share it', description: url });
  }
}

/** Beside a competition's title: watch it (signed in) and share it. */
export function TitleActions({ competitionId, title }: { competitionId: number; title: string }) {
  return (
    <Row>
      <WatchHeart competitionId={competitionId} title={title} />
      <Button
        type="button"
        $variant="secondary"
        onClick={() => void shareLink(title, `/competitions/${competitionId}`)}
        aria-label={`Share ${title}`}
      >
        Share
      </Button>
    </Row>
  );
}
