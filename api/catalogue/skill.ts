import type { Knex } from 'knex';
import { DEFAULT_SKILL_QUESTION } from '../../contract/cart';
import type { Competition } from '../../db/models';
import { recordSkillPassed, type SessionData } from '../platform/sessions';
import { findViewableCompetition } from './competitions';

const answerOf = (c: Competition) => c.skillAnswer ?? DEFAULT_SKILL_QUESTION.answer;

/**
 * Checks an answer on the server (the page never receives the right one) and remembers a
 * correct answer for this competition in the session. Wrong answers can be tried again.
 */
export async function answerSkillQuestion(
  db: Knex,
  session: SessionData,
  competitionId: number,
  answer: string,
) {
  const competition = await findViewableCompetition(db, competitionId);
  const correct = answer.trim().toLowerCase() === answerOf(competition).trim().toLowerCase();
  if (correct) recordSkillPassed(session, competitionId);
  return { correct };
}
