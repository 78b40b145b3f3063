import { describe, expect, it } from 'vitest';
import {
  instantWinCanonicalText,
  instantWinCommitment,
  verifyInstantWinReveal,
} from '../../contract/instantWins';

// The instant-win commitment rule (version 1) on the worked example of docs/draws.md#instant-wins.

const salt = `${'00'.repeat(16)}${'ff'.repeat(16)}`;
const list = [
  { number: 42, id: 2, title: '£5 site credit', kind: 'credit' as const, valuePence: 500 },
  { number: 7, id: 1, title: 'AirPods', kind: 'prize' as const, valuePence: 12900 },
];
const COMMITMENT = '423f995f66b31831bd455f79b214befd362ae2273d3702a9b95f3ed5b8697813';

describe('instant-win commitment', () => {
  it('hashes the RFC 8785 text of { v, salt, list sorted by number }', async () => {
    expect(instantWinCanonicalText(salt, list)).toBe(
      '{"list":[{"id":1,"kind":"prize","number":7,"title":"AirPods","valuePence":12900},' +
        '{"id":2,"kind":"credit","number":42,"title":"£5 site credit","valuePence":500}],' +
        `"salt":"${salt}","v":1}`,
    );
    expect(await instantWinCommitment(salt, list)).toBe(COMMITMENT);
  });

  it('verifies the honest reveal whatever the order of the list', async () => {
    expect(await verifyInstantWinReveal(COMMITMENT, { salt, list: [...list].reverse() })).toBe(true);
  });

  it('fails when one byte changes: a number, a title, a value or the salt', async () => {
    const changed = [
      { salt, list: [{ ...list[0]!, number: 43 }, list[1]!] },
      { salt, list: [list[0]!, { ...list[1]!, title: 'AirPodz' }] },
      { salt, list: [{ ...list[0]!, valuePence: 501 }, list[1]!] },
      { salt: `${salt.slice(0, -1)}e`, list },
      { salt, list: list.slice(1) },
    ];
    for (const reveal of changed) expect(await verifyInstantWinReveal(COMMITMENT, reveal)).toBe(false);
  });

  it('answers false for a malformed reveal instead of throwing', async () => {
    expect(await verifyInstantWinReveal(COMMITMENT, { salt: 'not hex', list })).toBe(false);
    expect(await verifyInstantWinReveal(COMMITMENT, null)).toBe(false);
  });
});
