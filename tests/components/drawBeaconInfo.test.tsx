import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QUICKNET } from '../../contract/beacon';
import { DrawBeaconInfo } from '../../web/components/draws/DrawBeaconInfo';
import { renderWithTheme } from './render';

// The competition page's beacon section (docs/draws.md "Version 2"): the rule before the close, a
// live countdown to the fixed round, its randomness once drawn, and the test beacon's label.

const LOCAL_CHAIN = 'ab'.repeat(32);
const fixed = (over: Record<string, unknown> = {}) => ({
  chain: QUICKNET.chainHash,
  round: 1234,
  dueAt: new Date(Date.now() + 30_000).toISOString(),
  publicKey: QUICKNET.publicKey,
  ...over,
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('DrawBeaconInfo', () => {
  it('before the close: the rule, no label for drand', () => {
    renderWithTheme(<DrawBeaconInfo beacon={null} drawn={false} />);
    expect(screen.getByTestId('draw-beacon').textContent).toContain(
      'tied to a future round of the drand randomness beacon',
    );
    expect(screen.queryByTestId('test-beacon-label')).toBeNull();
  });

  it('counts down to the fixed round, live', () => {
    vi.useFakeTimers();
    renderWithTheme(<DrawBeaconInfo beacon={fixed()} drawn={false} />);
    expect(screen.getByTestId('beacon-round').textContent).toBe('1234');
    expect(screen.getByTestId('draw-beacon').textContent).toContain('drand quicknet round 1234');
    expect(screen.getByTestId('beacon-countdown').textContent).toMatch(/^Due in (29|30) s/);
    act(() => {
      vi.advanceTimersByTime(10_000);
    });
    expect(screen.getByTestId('beacon-countdown').textContent).toMatch(/^Due in (19|20) s/);
    act(() => {
      vi.advanceTimersByTime(25_000);
    });
    expect(screen.getByTestId('beacon-countdown').textContent).toContain('The round is due now');
  });

  it("once drawn: the round's randomness; the local beacon is labelled as not independent", () => {
    renderWithTheme(
      <DrawBeaconInfo
        beacon={fixed({ chain: LOCAL_CHAIN, randomness: 'cd'.repeat(32), signature: 'ef'.repeat(48) })}
        drawn
      />,
    );
    expect(screen.getByTestId('test-beacon-label').textContent).toBe('test beacon: not independent');
    expect(screen.getByTestId('beacon-randomness').textContent).toBe('cd'.repeat(32));
    expect(screen.queryByTestId('beacon-countdown')).toBeNull();
  });
});
