import { describe, expect, it } from 'vitest';
import { addComponentIds, componentIdFor } from '../../scripts/componentIds';

// scripts/componentIds.ts: every styled component gets an id from its module and its place in it,
// so the server's and the browser's class names agree whatever order the modules load in.

const SOURCE = `import styled, { css } from 'styled-components';
import { Link } from 'wouter';
const mixin = css\`color: red;\`;
export const A = styled.div\`content: '✔ ';\`;
const B = styled(Link)\`display: flex;\`;
const C = styled.span.attrs({ role: 'note' })\`\${mixin}\`;
const D = styled(A).attrs((p) => ({ title: p.title }))\`margin: 0;\`;
const E = styled.p.withConfig({ componentId: 'mine' })\`margin: 0;\`;
function make() { return styled.section\`padding: 0;\`; }
`;

describe('addComponentIds', () => {
  it('names each styled component after its module and position, and nothing else', () => {
    const out = addComponentIds(SOURCE, 'web/x.tsx')!;
    const id = (n: number) => `.withConfig({ componentId: "${componentIdFor('web/x.tsx', n)}" })`;
    expect(out).toContain(`styled.div${id(0)}\`content: '✔ ';\``);
    expect(out).toContain(`styled(Link)${id(1)}\`display: flex;\``);
    expect(out).toContain(`styled.span.attrs({ role: 'note' })${id(2)}\`\${mixin}\``);
    expect(out).toContain(`styled(A).attrs((p) => ({ title: p.title }))${id(3)}\`margin: 0;\``);
    expect(out).toContain(`styled.section${id(4)}\`padding: 0;\``);
    // Already named, and css\`\` (no component): left alone.
    expect(out).toContain(`styled.p.withConfig({ componentId: 'mine' })\`margin: 0;\``);
    expect(out).toContain('const mixin = css`color: red;`;');
    expect(out.match(/withConfig/g)).toHaveLength(6);
  });

  it('gives the same ids for the same module in every build, and different ones elsewhere', () => {
    expect(addComponentIds(SOURCE, 'web/x.tsx')).toBe(addComponentIds(SOURCE, 'web/x.tsx'));
    expect(componentIdFor('web/x.tsx', 0)).not.toBe(componentIdFor('web/y.tsx', 0));
    expect(componentIdFor('web/x.tsx', 0)).not.toBe(componentIdFor('web/x.tsx', 1));
    expect(componentIdFor('web/x.tsx', 0)).toMatch(/^sc-[0-9a-f]{10}$/);
  });

  it('follows a renamed import and TypeScript generics, and skips modules without styled-components', () => {
    const ts = `import s from 'styled-components';\nconst A = s.span<{ $on: boolean }>\`color: \${(p) => (p.$on ? 'red' : 'blue')};\`;\n`;
    expect(addComponentIds(ts, 'web/t.tsx', 'tsx')).toContain(
      `s.span.withConfig({ componentId: "${componentIdFor('web/t.tsx', 0)}" })<{ $on: boolean }>\``,
    );
    expect(
      addComponentIds("import { css } from 'styled-components';\nexport const m = css`a: b;`;", 'web/m.ts'),
    ).toBeNull();
    expect(addComponentIds('export const styled = 1;', 'web/n.ts')).toBeNull();
  });
});
