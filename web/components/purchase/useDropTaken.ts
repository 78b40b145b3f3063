import { useEffect, useLayoutEffect, useRef } from 'react';
import { isFree, type LiveCompetition, numberState } from '../../live/competitionStore';
import { subscribeLive } from '../../live/liveNumbers';
import { toast } from '../../stores/toast';
import { listNumbers, lostNumbers, plural } from './selection';

/**
 * Someone else took a picked number: drop it now, with a toast. A number that became ours (our
 * own hold, confirmed a moment before the selection clears) was not taken by anyone else. Checked
 * on opening and at every live change, from the store's notice rather than a render of the picker.
 */
export function useDropTaken(
  open: boolean,
  live: LiveCompetition | undefined,
  selection: number[],
  onSelectionChange: (selection: number[]) => void,
) {
  const dropTaken = () => {
    if (!open || !live) return;
    const lost = lostNumbers(selection, (n) => isFree(live, n) || numberState(live, n) === 'mine');
    if (!lost.length) return;
    onSelectionChange(selection.filter((n) => !lost.includes(n)));
    toast({
      title: 'Number no longer available',
      description: `${plural(lost.length, 'Number')} ${listNumbers(lost)} ${lost.length === 1 ? 'was' : 'were'} just taken by another user.`,
      variant: 'destructive',
    });
  };
  const dropTakenRef = useRef(dropTaken);
  useLayoutEffect(() => {
    dropTakenRef.current = dropTaken;
  });
  useEffect(() => {
    if (!open || !live) return;
    dropTakenRef.current();
    return subscribeLive(() => dropTakenRef.current(), live.competitionId);
  }, [open, live]);
}
