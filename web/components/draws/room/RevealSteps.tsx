import styled from 'styled-components';
import { Hash } from '../Hash';
import type { DrawCheck } from '../verifyDraw';
import { type RevealStep, stepVerdict } from './revealSteps';

const Steps = styled.ol`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: ${({ theme }) => theme.space.sm};
  li {
    display: grid;
    gap: ${({ theme }) => theme.space.xxs};
    padding: ${({ theme }) => theme.space.md};
    border-radius: ${({ theme }) => theme.radii.md};
    background: ${({ theme }) => theme.colors.surface};
    border-left: 6px solid ${({ theme }) => theme.colors.border};
    min-width: 0;
  }
  li[data-verdict='passed'] { border-color: ${({ theme }) => theme.colors.success}; }
  li[data-verdict='failed'] { border-color: ${({ theme }) => theme.colors.danger}; }
  h3 { margin: 0; font-size: var(--reveal-size, 1.25rem); }
  p { margin: 0; }
  .verdict { font-weight: 700; }
  li[data-verdict='passed'] .verdict { color: ${({ theme }) => theme.colors.success}; }
  li[data-verdict='failed'] .verdict { color: ${({ theme }) => theme.colors.danger}; }
`;

const Row = styled.div`
  display: grid;
  grid-template-columns: repeat(10, minmax(0, 1fr));
  gap: 4px;
  max-width: 420px;
  span {
    text-align: center;
    padding: 4px 0;
    border-radius: ${({ theme }) => theme.radii.sm};
    background: ${({ theme }) => theme.colors.muted};
    font-variant-numeric: tabular-nums;
  }
  span[data-winner='true'] {
    background: ${({ theme }) => theme.colors.accent};
    color: ${({ theme }) => theme.colors.text};
    font-weight: 700;
    outline: 3px solid ${({ theme }) => theme.colors.brand};
  }
`;

/** The grid's row of ten around the winning number, the number marked. */
function GridRow({ number, total }: { number: number; total: number }) {
  const first = Math.floor((number - 1) / 10) * 10 + 1;
  const cells = Array.from({ length: 10 }, (_, i) => first + i).filter((n) => n <= total);
  return (
    <Row aria-label={`Number ${number} in the grid`} data-testid="reveal-grid">
      {cells.map((n) => (
        <span key={n} data-winner={n === number}>
          {n}
        </span>
      ))}
    </Row>
  );
}

const VERDICT_TEXT = {
  passed: '✔ Checked in your browser',
  failed: '✘ Your browser’s check failed',
  checking: 'Checking in your browser…',
} as const;

/** The steps shown so far, each with its value and the verdict of this browser's checks. */
export function RevealSteps({
  steps,
  shown,
  checks,
  totalTickets,
}: {
  steps: RevealStep[];
  shown: number;
  checks: DrawCheck[] | null;
  totalTickets: number;
}) {
  return (
    <Steps aria-live="polite" data-testid="reveal-steps">
      {steps.slice(0, shown).map((step) => {
        const verdict = stepVerdict(step, checks);
        const failed = checks?.filter((c) => step.checks.includes(c.key) && c.status === 'failed') ?? [];
        return (
          <li key={step.key} data-step={step.key} data-verdict={verdict}>
            <h3>{step.heading}</h3>
            {step.value && <Hash>{step.value}</Hash>}
            {step.note && <p>{step.note}</p>}
            {step.number !== undefined && <GridRow number={step.number} total={totalTickets} />}
            {verdict !== 'none' && (
              <p className="verdict" data-testid="step-verdict">
                {VERDICT_TEXT[verdict]}
                {verdict === 'failed' && `: ${failed.map((c) => c.label).join('; ')}`}
              </p>
            )}
          </li>
        );
      })}
    </Steps>
  );
}
