import type { Knex } from 'knex';
import { iso } from '../../../contract/dates';
import { ERROR_CODES } from '../../../contract/errors';
import { type SkillAnswerResult, type SkillQuestionView, skillLockedMessage } from '../../../contract/skill';
import { conflict, HttpError } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import {
  hasPassedSkill,
  recordSkillPassed,
  type SessionData,
  setSkillShown,
  skillShownFor,
} from '../../platform/sessions';
import { inUnitOfWork } from '../../platform/unitOfWork';
import { findViewableCompetition } from '../competitions';
import { attempterOf, lockAttempts, readAttempts, recordWrongAnswer, stateOf } from './attempts';
import { type PooledQuestion, pickRandom, poolOf, sameAnswer, shuffled } from './pool';

// The skill test (docs/product.md#skill-question): a random question of the competition's pool,
// remembered in the session and checked on the server; SKILL_MAX_ATTEMPTS wrong answers per
// competition and person in 24 hours, then 429 until the oldest leaves the window.

export interface SkillDeps {
  db: Knex;
  events: EventBus;
  maxAttempts: number;
}

const QUESTION_CHANGED = 'The skill question has changed. Please answer the new question.';

const lockedError = (maxAttempts: number, retryAt: number) =>
  new HttpError(
    429,
    ERROR_CODES.skillLocked,
    skillLockedMessage(maxAttempts, new Date(retryAt)),
    { retryAt: iso(retryAt), maxAttempts },
    { 'Retry-After': String(Math.max(1, Math.ceil((retryAt - Date.now()) / 1000))) },
  );

/** The questions of a competition a visitor may open (404 otherwise). */
const poolFor = async (db: Knex, competitionId: number) =>
  poolOf(await findViewableCompetition(db, competitionId));

/** The question this session was shown, else (the first time, or after a wrong answer) a random one. */
export async function showSkillQuestion(
  deps: SkillDeps,
  session: SessionData,
  competitionId: number,
  now = Date.now(),
): Promise<SkillQuestionView> {
  const pool = await poolFor(deps.db, competitionId);
  const shown = skillShownFor(session, competitionId);
  const question = pool.find((q) => q.id === shown) ?? pickRandom(pool);
  setSkillShown(session, competitionId, question.id);
  const state = await readAttempts(deps.db, competitionId, attempterOf(session), deps.maxAttempts, now);
  return {
    questionId: question.id,
    question: question.question,
    options: shuffled(question.options),
    maxAttempts: deps.maxAttempts,
    attemptsLeft: state.attemptsLeft,
    retryAt: state.retryAt === null ? null : iso(state.retryAt),
    passed: hasPassedSkill(session, competitionId),
  };
}

/**
 * The question an answer is checked against: the one shown to this session. A session that was
 * shown none may answer a pool of one (the default question); a question edited away is a 409.
 */
function questionAnswered(session: SessionData, competitionId: number, pool: PooledQuestion[]) {
  const shown = skillShownFor(session, competitionId);
  const question = shown ? pool.find((q) => q.id === shown) : pool.length === 1 ? pool[0] : undefined;
  if (question) return question;
  setSkillShown(session, competitionId, null);
  throw conflict(
    shown ? QUESTION_CHANGED : 'Please open the skill question first.',
    undefined,
    ERROR_CODES.skillQuestionChanged,
  );
}

/**
 * Checks an answer (text, as the options read) on the server and remembers a correct one for this
 * competition in the session. A wrong answer uses up an attempt; with none left every answer,
 * right or wrong, is a 429 saying when the next attempt is allowed.
 */
export async function answerSkillQuestion(
  deps: SkillDeps,
  session: SessionData,
  competitionId: number,
  answer: string,
  now = Date.now(),
): Promise<SkillAnswerResult> {
  const question = questionAnswered(session, competitionId, await poolFor(deps.db, competitionId));
  const attempter = attempterOf(session);
  const result = await inUnitOfWork(deps, async ({ trx }) => {
    const state = await lockAttempts(trx, competitionId, attempter, deps.maxAttempts, now);
    if (state.retryAt !== null) throw lockedError(deps.maxAttempts, state.retryAt);
    if (sameAnswer(answer, question.answer)) return { correct: true };
    await recordWrongAnswer(trx, competitionId, attempter, state, now);
    const after = stateOf([...state.wrongAt, now], deps.maxAttempts, now);
    return {
      correct: false,
      attemptsLeft: after.attemptsLeft,
      retryAt: after.retryAt === null ? null : iso(after.retryAt),
    };
  });
  if (result.correct) recordSkillPassed(session, competitionId);
  // Right or wrong, the next visit to the dialog draws a question afresh.
  setSkillShown(session, competitionId, null);
  return result;
}
