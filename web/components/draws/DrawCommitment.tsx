import { Link } from 'wouter';
import { DrawInfoBox } from './DrawInfoBox';
import { Hash } from './Hash';

/** The SHA-256 of the secret draw seed, published from creation so the draw cannot be steered. */
export function DrawCommitment({ commitment, drawn }: { commitment: string; drawn: boolean }) {
  return (
    <DrawInfoBox aria-labelledby="draw-commitment-title" data-testid="draw-commitment">
      <h2 id="draw-commitment-title">Draw commitment</h2>
      <Hash>{commitment}</Hash>
      <p>
        {drawn
          ? 'The fingerprint (SHA-256) of the secret seed, published before the first ticket was sold. The seed is now revealed below so you can check it matches.'
          : 'The fingerprint (SHA-256) of the secret seed that will pick the winner, fixed before the first ticket was sold. The seed is revealed at the draw so anyone can check it.'}{' '}
        <Link href="/how-to-play#fair-draws">How our draws work</Link>
      </p>
    </DrawInfoBox>
  );
}
