import { DEFAULT_SKILL_QUESTION } from '../../../contract/cart';
import { SKILL_POOL_MAX } from '../../../contract/skill';
import { Button } from '../ui/Button';
import { Control, Muted } from './AdminUi';
import { emptySkillQuestion, lines, type SkillFormQuestion } from './competitionForm';

/**
 * The competition's skill question pool in the admin form: each question with 3 or 4 options and
 * the correct one chosen among them. Visitors get one at random; none uses the default question.
 */
export function SkillPoolFields({
  questions,
  errors,
  onChange,
}: {
  questions: SkillFormQuestion[];
  /** Keyed 'skillQuestions.<index>.<field>' (formFieldOf). */
  errors: Record<string, string>;
  onChange: (questions: SkillFormQuestion[]) => void;
}) {
  const edit = (index: number, field: keyof SkillFormQuestion, value: string) =>
    onChange(questions.map((q, i) => (i === index ? { ...q, [field]: value } : q)));
  const error = (index: number, field: string) => errors[`skillQuestions.${index}.${field}`];
  return (
    <fieldset data-testid="skill-pool">
      <legend>Skill questions</legend>
      {questions.length === 0 && (
        <Muted>No questions of its own: visitors are asked '{DEFAULT_SKILL_QUESTION.question}'.</Muted>
      )}
      {errors.skillQuestions && <small role="alert">{errors.skillQuestions}</small>}
      {questions.map((q, i) => {
        const n = i + 1;
        const options = lines(q.options);
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: the questions have no identity of their own while edited
          <fieldset key={i} aria-label={`Skill question ${n}`}>
            <Control>
              <label htmlFor={`c-question-${n}`}>Question {n}</label>
              <input
                id={`c-question-${n}`}
                value={q.question}
                aria-invalid={error(i, 'question') ? true : undefined}
                onChange={(e) => edit(i, 'question', e.target.value)}
              />
              {error(i, 'question') && <small>{error(i, 'question')}</small>}
            </Control>
            <Control>
              <label htmlFor={`c-options-${n}`}>Answer options for question {n} (one per line, 3 or 4)</label>
              <textarea
                id={`c-options-${n}`}
                value={q.options}
                aria-invalid={error(i, 'options') ? true : undefined}
                onChange={(e) => edit(i, 'options', e.target.value)}
              />
              {error(i, 'options') && <small>{error(i, 'options')}</small>}
            </Control>
            <Control>
              <label htmlFor={`c-answer-${n}`}>Correct answer to question {n}</label>
              <select
                id={`c-answer-${n}`}
                value={q.answer}
                onChange={(e) => edit(i, 'answer', e.target.value)}
              >
                {!options.includes(q.answer) && <option value={q.answer}>{q.answer || 'Choose…'}</option>}
                {options.map((o) => (
                  <option key={o} value={o}>
                    {o}
                  </option>
                ))}
              </select>
              {error(i, 'answer') && <small>{error(i, 'answer')}</small>}
            </Control>
            <div>
              <Button
                type="button"
                $variant="ghost"
                onClick={() => onChange(questions.filter((_, j) => j !== i))}
              >
                Remove question {n}
              </Button>
            </div>
          </fieldset>
        );
      })}
      {questions.length < SKILL_POOL_MAX && (
        <div>
          <Button
            type="button"
            $variant="secondary"
            onClick={() => onChange([...questions, emptySkillQuestion()])}
          >
            Add a question
          </Button>
        </div>
      )}
    </fieldset>
  );
}
