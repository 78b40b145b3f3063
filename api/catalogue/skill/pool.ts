import { createHash, randomInt } from 'node:crypto';
import { type SkillPoolQuestion, skillPoolOf } from '../../../contract/skill';
import type { Competition } from '../../../db/models';

// A competition's skill questions with stable ids: the id is a hash of the question's content, so
// an admin re-saving the same pool keeps it, and an edited or removed question no longer matches.

export interface PooledQuestion extends SkillPoolQuestion {
  id: string;
}

const idOf = (q: SkillPoolQuestion) =>
  createHash('sha256')
    .update(JSON.stringify([q.question, q.options, q.answer]))
    .digest('base64url')
    .slice(0, 16);

export const poolOf = (c: Pick<Competition, 'skillQuestions'>): PooledQuestion[] =>
  skillPoolOf(c.skillQuestions).map((q) => ({ ...q, id: idOf(q) }));

export const pickRandom = <T>(list: readonly T[]): T => list[randomInt(list.length)]!;

/** A shuffled copy (Fisher-Yates with crypto.randomInt): option order says nothing about the answer. */
export function shuffled<T>(list: readonly T[]): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Answers compare trimmed and case-blind: '365', ' 365 ' and 365 are the same answer. */
export const sameAnswer = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
