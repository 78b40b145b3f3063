import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import type { Result } from 'axe-core';

/** WCAG 2.0, 2.1 and 2.2 at levels A and AA, plus axe's best practices (issue 20). */
export const AXE_TAGS = [
  'wcag2a',
  'wcag2aa',
  'wcag21a',
  'wcag21aa',
  'wcag22a',
  'wcag22aa',
  'best-practice',
] as const;

/** One entry per failing element: rule id, impact, CSS target, what is wrong, the rule's page. */
export function formatViolations(results: Result[]): string[] {
  return results.flatMap((r) =>
    r.nodes.map((node) => {
      const target = node.target.map(String).join(' >> ');
      const why = (
        node.failureSummary ?? [...node.any, ...node.all, ...node.none].map((c) => c.message).join('; ')
      )
        .replace(/\s+/g, ' ')
        .trim();
      return `[${r.id}] (${r.impact ?? 'unknown'}) ${target}: ${why} (${r.helpUrl})`;
    }),
  );
}

/**
 * Runs axe-core on the page (or only inside `include`) and fails, softly (the test goes on, so one
 * run lists every page), with each violation on its own line.
 *
 * 'Needs review' results count as violations too (an aria-label on a plain div is one), except
 * colour contrast: axe cannot compute it over a modal <dialog> (the top layer), a gradient or image
 * behind text, a dropdown over the page, or for a lone ✓ glyph. Those are attached to the test as
 * annotations to read; the theme's own text/background pairs are checked in
 * tests/unit/themeContrast.test.ts.
 */
export async function expectNoAxeViolations(
  page: Page,
  name: string,
  { include }: { include?: string } = {},
) {
  let builder = new AxeBuilder({ page }).withTags([...AXE_TAGS]);
  if (include) builder = builder.include(include);
  const { violations, incomplete } = await builder.analyze();
  const undecidedContrast = incomplete.filter((r) => r.id === 'color-contrast');
  const needsReview = incomplete.filter((r) => r.id !== 'color-contrast');
  for (const line of formatViolations(undecidedContrast))
    test.info().annotations.push({ type: 'axe: contrast not computed', description: `${name}: ${line}` });
  expect
    .soft(formatViolations([...violations, ...needsReview]), `axe-core violations on ${name}`)
    .toEqual([]);
}
