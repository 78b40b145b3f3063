import type { Knex } from 'knex';
import { DEFAULT_SKILL_QUESTION } from '../../contract/cart';
import type { Competition } from '../../db/models';
import type { SessionData } from '../platform/sessions';
import { findViewableCompetition } from './competitions';

export const SKILL_REQUIRED_MESSAGE = 'Please answer the skill question first';

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
  if (correct) {
    const passed = new Set(session.skillPassed ?? []);
    passed.add(competitionId);
    session.skillPassed = [...passed];
  }
  return { correct };
}

export const hasPassedSkill = (session: SessionData | null | undefined, competitionId: number) =>
  Boolean(session?.skillPassed?.includes(competitionId));
