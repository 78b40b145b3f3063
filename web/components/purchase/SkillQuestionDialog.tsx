import { type FormEvent, useCallback, useEffect, useState } from 'react';
import styled from 'styled-components';
import type { CATALOGUE_ROUTES } from '../../../contract/apiCatalogue';
import { ERROR_CODES } from '../../../contract/errors';
import { type SkillQuestionView, skillLockedMessage } from '../../../contract/skill';
import { call } from '../../api/call';
import { ApiError, messageOf } from '../../api/client';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { ErrorBox } from '../ui/Form';
import { Spinner } from '../ui/Spinner';

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

type Phase = 'loading' | 'asking' | 'checking' | 'correct' | 'wrong' | 'locked';

const attemptsLeftText = (n: number) => `You have ${n} ${n === 1 ? 'attempt' : 'attempts'} left.`;

/** The one way out once no answer can be given. */
function CloseOnly({ onClose }: { onClose: () => void }) {
  return (
    <Actions>
      <Button type="button" $variant="ghost" onClick={onClose}>
        Close
      </Button>
    </Actions>
  );
}

/** The question and its options as radio buttons. */
function AnswerOptions({
  view,
  choice,
  onChoose,
}: {
  view: SkillQuestionView;
  choice: string;
  onChoose: (option: string) => void;
}) {
  return (
    <Options>
      <legend>{view.question}</legend>
      {view.options.map((option) => (
        <label key={option}>
          <input
            type="radio"
            name="skill-answer"
            value={option}
            checked={choice === option}
            onChange={() => onChoose(option)}
          />
          {option}
        </label>
      ))}
    </Options>
  );
}

/** 'No attempts left' and when the next attempt is allowed. */
function LockedOut({ message, onClose }: { message: string; onClose: () => void }) {
  return (
    <>
      <Result $ok={false} role="alert" data-testid="skill-locked">
        <h3>No attempts left</h3>
        <p>{message}</p>
      </Result>
      <CloseOnly onClose={onClose} />
    </>
  );
}

/** 'Incorrect': try again while attempts are left, else when the next attempt is allowed. */
function WrongAnswer({
  attemptsLeft,
  lockedMessage,
  onClose,
  onRetry,
}: {
  attemptsLeft: number;
  lockedMessage: string;
  onClose: () => void;
  onRetry: () => void;
}) {
  return (
    <>
      <Result $ok={false} role="alert">
        <h3>Incorrect</h3>
        {attemptsLeft > 0 ? (
          <>
            <p>That's not quite right. Please try again.</p>
            <p data-testid="skill-attempts-left">{attemptsLeftText(attemptsLeft)}</p>
          </>
        ) : (
          <p data-testid="skill-locked">{lockedMessage}</p>
        )}
      </Result>
      {attemptsLeft > 0 ? (
        <Actions>
          <Button type="button" $variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="button" onClick={onRetry}>
            Try Again
          </Button>
        </Actions>
      ) : (
        <CloseOnly onClose={onClose} />
      )}
    </>
  );
}

/**
 * The skill question that stands between a visitor and every hold. The server picks a question of
 * the competition's pool, checks the answer (the page never knows it), counts wrong answers
 * (SKILL_MAX_ATTEMPTS in 24 hours) and remembers a correct one in the session.
 */
export function SkillQuestionDialog({
  open,
  competitionId,
  onPassed,
  onClose,
}: {
  open: boolean;
  competitionId: number;
  onPassed: () => void;
  onClose: () => void;
}) {
  const [view, setView] = useState<SkillQuestionView | null>(null);
  const [choice, setChoice] = useState('');
  const [phase, setPhase] = useState<Phase>('loading');
  const [error, setError] = useState('');
  const [attemptsLeft, setAttemptsLeft] = useState(0);
  const [lockedMessage, setLockedMessage] = useState('');

  const load = useCallback(async () => {
    setPhase('loading');
    setChoice('');
    try {
      const next = await call<typeof CATALOGUE_ROUTES.skillQuestion>(
        { method: 'GET', path: '/api/competitions/:id/skill-question' },
        { params: { id: competitionId } },
      );
      setView(next);
      setAttemptsLeft(next.attemptsLeft);
      if (next.retryAt && next.attemptsLeft === 0) {
        setLockedMessage(skillLockedMessage(next.maxAttempts, new Date(next.retryAt)));
        setPhase('locked');
      } else setPhase('asking');
    } catch (err) {
      setView(null);
      setPhase('asking');
      setError(messageOf(err, 'We could not load the question. Please try again.'));
    }
  }, [competitionId]);

  useEffect(() => {
    if (!open) return;
    setError('');
    void load();
  }, [open, load]);

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
      const result = await call<typeof CATALOGUE_ROUTES.skillAnswer>(
        { method: 'POST', path: '/api/competitions/:id/skill-answer' },
        { params: { id: competitionId }, body: { answer: choice } },
      );
      if (result.correct) return setPhase('correct');
      setAttemptsLeft(result.attemptsLeft ?? 0);
      if (result.retryAt && view)
        setLockedMessage(skillLockedMessage(view.maxAttempts, new Date(result.retryAt)));
      setPhase('wrong');
    } catch (err) {
      if (err instanceof ApiError && err.code === ERROR_CODES.skillLocked) {
        setLockedMessage(messageOf(err, ''));
        return setPhase('locked');
      }
      const message = messageOf(err, 'We could not check your answer. Please try again.');
      // The pool changed under this visitor: show the new question.
      if (err instanceof ApiError && err.code === ERROR_CODES.skillQuestionChanged) await load();
      else setPhase('asking');
      setError(message);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} title="Skill Question" testId="skill-dialog">
      <p>Answer correctly to enter this competition.</p>
      {phase === 'loading' ? (
        <Spinner label="Loading the question" />
      ) : phase === 'correct' ? (
        <Result $ok role="status">
          <h3>Correct! Proceeding...</h3>
        </Result>
      ) : phase === 'locked' ? (
        <LockedOut message={lockedMessage} onClose={onClose} />
      ) : phase === 'wrong' ? (
        <WrongAnswer
          attemptsLeft={attemptsLeft}
          lockedMessage={lockedMessage}
          onClose={onClose}
          onRetry={() => void load()}
        />
      ) : (
        <form onSubmit={submit}>
          {view && <AnswerOptions view={view} choice={choice} onChoose={setChoice} />}
          {view && view.attemptsLeft < view.maxAttempts && (
            <p data-testid="skill-attempts-left">{attemptsLeftText(attemptsLeft)}</p>
          )}
          {error && <ErrorBox role="alert">{error}</ErrorBox>}
          <Actions>
            <Button type="button" $variant="ghost" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={phase === 'checking' || !view}>
              {phase === 'checking' ? 'Checking...' : 'Submit Answer'}
            </Button>
          </Actions>
        </form>
      )}
    </Dialog>
  );
}
