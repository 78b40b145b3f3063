import { type FormEvent, useEffect, useState } from 'react';
import styled from 'styled-components';
import type { SkillQuestion } from '../../../contract/cart';
import { apiSend, messageOf } from '../../api/client';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { ErrorBox } from '../ui/Form';

/** Spec: a correct answer shows 'Correct! Proceeding...' and continues after 1.5 s. */
export const CORRECT_ANSWER_DELAY_MS = 1500;

const Options = styled.fieldset`
  border: 0;
  padding: 0;
  margin: ${({ theme }) => `${theme.space.md} 0`};
  display: grid;
  gap: ${({ theme }) => theme.space.xs};
  legend { font-weight: 600; margin-bottom: ${({ theme }) => theme.space.xs}; }
  label {
    display: flex;
    align-items: center;
    gap: ${({ theme }) => theme.space.sm};
    min-height: 44px;
    padding: 0 ${({ theme }) => theme.space.md};
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: ${({ theme }) => theme.radii.md};
    cursor: pointer;
  }
  label:has(input:checked) { border-color: ${({ theme }) => theme.colors.brand}; background: ${({ theme }) => theme.colors.muted}; }
`;

const Result = styled.div<{ $ok: boolean }>`
  margin: ${({ theme }) => `${theme.space.md} 0`};
  padding: ${({ theme }) => theme.space.md};
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ $ok, theme }) => ($ok ? theme.colors.successBg : theme.colors.dangerBg)};
  color: ${({ $ok, theme }) => ($ok ? theme.colors.success : theme.colors.danger)};
  h3 { margin: 0 0 4px; }
  p { margin: 0; }
`;

const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
  gap: ${({ theme }) => theme.space.sm};
`;

type Phase = 'asking' | 'checking' | 'correct' | 'wrong';

/**
 * The skill question that stands between a visitor and every hold. The server checks the answer
 * (the page never knows it) and remembers a correct one in the session for this competition.
 */
export function SkillQuestionDialog({
  open,
  competitionId,
  skillQuestion,
  onPassed,
  onClose,
}: {
  open: boolean;
  competitionId: number;
  skillQuestion: SkillQuestion;
  onPassed: () => void;
  onClose: () => void;
}) {
  const [choice, setChoice] = useState('');
  const [phase, setPhase] = useState<Phase>('asking');
  const [error, setError] = useState('');

  useEffect(() => {
    if (!open) return;
    setChoice('');
    setPhase('asking');
    setError('');
  }, [open]);

  useEffect(() => {
    if (phase !== 'correct') return;
    const timer = setTimeout(onPassed, CORRECT_ANSWER_DELAY_MS);
    return () => clearTimeout(timer);
  }, [phase, onPassed]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!choice) {
      setError('Please choose an answer');
      return;
    }
    setPhase('checking');
    setError('');
    try {
      const { correct } = await apiSend<{ correct: boolean }>(
        'POST',
        `/api/competitions/${competitionId}/skill-answer`,
        { answer: choice },
      );
      setPhase(correct ? 'correct' : 'wrong');
    } catch (err) {
      setPhase('asking');
      setError(messageOf(err, 'We could not check your answer. Please try again.'));
    }
  };

  return (
    <Dialog open={open} onClose={onClose} title="Skill Question" testId="skill-dialog">
      <p>Answer correctly to enter this competition.</p>
      {phase === 'correct' ? (
        <Result $ok role="status">
          <h3>Correct! Proceeding...</h3>
        </Result>
      ) : phase === 'wrong' ? (
        <>
          <Result $ok={false} role="alert">
            <h3>Incorrect</h3>
            <p>That's not quite right. Please try again.</p>
          </Result>
          <Actions>
            <Button type="button" $variant="ghost" onClick={onClose}>
              Cancel
            </Button>
            <Button
              type="button"
              onClick={() => {
                setChoice('');
                setPhase('asking');
              }}
            >
              Try Again
            </Button>
          </Actions>
        </>
      ) : (
        <form onSubmit={submit}>
          <Options>
            <legend>{skillQuestion.question}</legend>
            {skillQuestion.options.map((option) => (
              <label key={option}>
                <input
                  type="radio"
                  name="skill-answer"
                  value={option}
                  checked={choice === option}
                  onChange={() => setChoice(option)}
                />
                {option}
              </label>
            ))}
          </Options>
          {error && <ErrorBox role="alert">{error}</ErrorBox>}
          <Actions>
            <Button type="button" $variant="ghost" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={phase === 'checking'}>
              {phase === 'checking' ? 'Checking...' : 'Submit Answer'}
            </Button>
          </Actions>
        </form>
      )}
    </Dialog>
  );
}
