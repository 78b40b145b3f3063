import { useState } from 'react';
import styled from 'styled-components';
import { messageOf, takenNumbersOf } from '../../api/client';
import { useCart } from '../../stores/cart';
import { clearReleased, type ReleasedHold, useReleasedHolds } from '../../stores/releasedHolds';
import { listNumbers, plural } from '../purchase/selection';
import { Button } from '../ui/Button';

const Box = styled.section`
  border: 1px solid ${({ theme }) => theme.colors.warning};
  background: ${({ theme }) => theme.colors.warningBg};
  border-radius: ${({ theme }) => theme.radii.md};
  padding: ${({ theme }) => theme.space.md};
  margin-bottom: ${({ theme }) => theme.space.lg};
  h2 { margin: 0 0 4px; font-size: ${({ theme }) => theme.fontSizes.lg}; }
  p, ul { margin: 0 0 ${({ theme }) => theme.space.sm}; }
  .actions { display: flex; flex-wrap: wrap; gap: ${({ theme }) => theme.space.sm}; }
`;

const describeHold = (h: ReleasedHold) =>
  `${h.title}: ${plural(h.numbers.length, 'number')} ${listNumbers(h.numbers)}${h.luckyDip ? ' (Lucky Dip)' : ''}`;

/**
 * Holds one released line again through the ordinary hold API. Chosen numbers that someone took
 * meanwhile are named and the rest are held; a Lucky Dip line is a new Lucky Dip of its size.
 */
async function holdAgain(h: ReleasedHold): Promise<string> {
  const add = useCart.getState().add;
  const request = (numbers: number[]) =>
    add({
      competitionId: h.competitionId,
      quantity: numbers.length,
      selectedNumbers: h.luckyDip ? [] : numbers,
    });
  try {
    const item = await request(h.numbers);
    return `${h.title}: held again (${listNumbers(item.heldNumbers)}).`;
  } catch (err) {
    const taken = takenNumbersOf(err);
    if (!taken?.length) return `${h.title}: ${messageOf(err, 'could not be held again. Please try again.')}`;
    const lost = `${listNumbers(taken)} ${taken.length === 1 ? 'was' : 'were'} taken by someone else meanwhile`;
    const rest = h.numbers.filter((n) => !taken.includes(n));
    if (!rest.length) return `${h.title}: ${lost}.`;
    try {
      await request(rest);
      return `${h.title}: ${lost}; ${listNumbers(rest)} ${rest.length === 1 ? 'is' : 'are'} held again.`;
    } catch (again) {
      return `${h.title}: ${lost}; ${messageOf(again, 'the others could not be held again.')}`;
    }
  }
}

/**
 * Says which numbers left the cart when their hold ran out, and offers them back in one click
 * (docs/product.md#cart). Shown on the cart page, empty or not.
 */
export function ReleasedHolds() {
  const holds = useReleasedHolds((s) => s.holds);
  const report = useReleasedHolds((s) => s.report);
  const [busy, setBusy] = useState(false);
  if (!holds.length && !report.length) return null;

  const retry = async () => {
    setBusy(true);
    const lines: string[] = [];
    // One after another: each is one ordinary hold, and the cart follows each answer.
    for (const h of holds) lines.push(await holdAgain(h));
    useReleasedHolds.setState({ holds: [], report: lines });
    setBusy(false);
  };

  return (
    <Box aria-labelledby="released-title" data-testid="released-holds">
      {holds.length > 0 ? (
        <>
          <h2 id="released-title">Your reservation ran out</h2>
          <p>
            Numbers are held for you for a limited time so that others can buy them if you don't. These were
            released when their time ran out before checkout:
          </p>
          <ul>
            {holds.map((h) => (
              <li key={h.itemId}>{describeHold(h)}</li>
            ))}
          </ul>
          <div className="actions">
            <Button type="button" onClick={() => void retry()} disabled={busy}>
              {busy ? 'Holding...' : 'Try to hold them again'}
            </Button>
            <Button type="button" $variant="ghost" onClick={clearReleased} disabled={busy}>
              Dismiss
            </Button>
          </div>
        </>
      ) : (
        <>
          <h2 id="released-title">Released numbers</h2>
          <ul role="status">
            {report.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          <div className="actions">
            <Button type="button" $variant="ghost" onClick={clearReleased}>
              Dismiss
            </Button>
          </div>
        </>
      )}
    </Box>
  );
}
