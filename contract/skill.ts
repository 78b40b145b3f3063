import * as v from 'valibot';
import { DEFAULT_SKILL_QUESTION } from './cart';
import { formatClock, formatLongDate } from './londonTime';

// The skill test (docs/product.md#skill-question): each competition's pool of questions, what a
// visitor is shown, and the limit on wrong answers. The correct answer never reaches a visitor.

export const SKILL_OPTIONS_MIN = 3;
export const SKILL_OPTIONS_MAX = 4;
export const SKILL_POOL_MAX = 20;
/** Wrong answers count for this long (SKILL_MAX_ATTEMPTS of them per competition and person). */
export const SKILL_ATTEMPT_WINDOW_MS = 24 * 60 * 60 * 1000;

const text = (required: string, max: number, tooLong: string) =>
  v.pipe(v.string(required), v.trim(), v.nonEmpty(required), v.maxLength(max, tooLong));

/** One question of a pool as an admin edits it: 3 or 4 distinct options, exactly one correct. */
export const SkillPoolQuestionSchema = v.pipe(
  v.object({
    question: text('The skill question is required', 300, 'The skill question is too long'),
    options: v.pipe(
      v.array(
        text('Every answer option needs text', 100, 'An answer option is too long'),
        'Options must be a list',
      ),
      v.minLength(SKILL_OPTIONS_MIN, 'Give 3 or 4 answer options'),
      v.maxLength(SKILL_OPTIONS_MAX, 'Give 3 or 4 answer options'),
      v.check((o) => new Set(o.map((s) => s.toLowerCase())).size === o.length, 'Answer options must differ'),
    ),
    answer: text('The correct answer is required', 100, 'The correct answer is too long'),
  }),
  // Distinct options and an answer equal to one of them: exactly one correct option.
  v.forward(
    v.check(
      (q) => q.options.some((o) => o.toLowerCase() === q.answer.toLowerCase()),
      'The correct answer must be one of the options',
    ),
    ['answer'],
  ),
  // Stored spelt as among the options, so the check compares like with like.
  v.transform((q) => ({
    ...q,
    answer: q.options.find((o) => o.toLowerCase() === q.answer.toLowerCase()) ?? q.answer,
  })),
);
export type SkillPoolQuestion = v.InferOutput<typeof SkillPoolQuestionSchema>;

/** A competition's pool; empty = the site's default question. */
export const SkillPoolSchema = v.pipe(
  v.array(SkillPoolQuestionSchema, 'Skill questions must be a list'),
  v.maxLength(SKILL_POOL_MAX, 'At most 20 skill questions'),
);

/** GET /api/competitions/:id/skill-question: the question this visitor answers, options shuffled. */
export interface SkillQuestionView {
  /** Which question of the pool was shown; the answer is checked against this one. */
  questionId: string;
  question: string;
  options: string[];
  maxAttempts: number;
  attemptsLeft: number;
  /** ISO; when all attempts are used, when the next one is allowed. */
  retryAt: string | null;
  /** This session already answered correctly. */
  passed: boolean;
}

/** POST /api/competitions/:id/skill-answer */
export interface SkillAnswerResult {
  correct: boolean;
  /** After a wrong answer: attempts left in the window, and when a new one is allowed at 0. */
  attemptsLeft?: number;
  retryAt?: string | null;
}

/** The 429 once the wrong answers are used up; details.retryAt carries the machine-readable time. */
export const SkillLockedDetailsSchema = v.object({ retryAt: v.string(), maxAttempts: v.number() });

/** 'You have used all 2 attempts ... You can try again after 14:05 on 24 November 2026 (UK time).' */
export function skillLockedMessage(maxAttempts: number, retryAt: Date): string {
  const attempts = maxAttempts === 1 ? '1 attempt' : `all ${maxAttempts} attempts`;
  return (
    `You have used ${attempts} at this skill question. You can try again after ` +
    `${formatClock(retryAt)} on ${formatLongDate(retryAt)} (UK time).`
  );
}

/** The questions a competition asks: its pool, or the site's default question when it has none. */
export const skillPoolOf = (stored: readonly SkillPoolQuestion[] | null | undefined): SkillPoolQuestion[] =>
  stored?.length
    ? stored.map((q) => ({ ...q, options: [...q.options] }))
    : [{ ...DEFAULT_SKILL_QUESTION, options: [...DEFAULT_SKILL_QUESTION.options] }];
