import type { Knex } from 'knex';
import { DEFAULT_SKILL_QUESTION } from '../../contract/cart';

// Each competition carries its own skill question; the answer never leaves the server.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('competitions', (t) => {
    t.text('skill_question').nullable(); // JSON { question, options }
    t.string('skill_answer', 100).nullable();
  });
  await knex('competitions').update({
    skillQuestion: JSON.stringify({
      question: DEFAULT_SKILL_QUESTION.question,
      options: DEFAULT_SKILL_QUESTION.options,
    }),
    skillAnswer: DEFAULT_SKILL_QUESTION.answer,
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('competitions', (t) => {
    t.dropColumn('skill_question');
    t.dropColumn('skill_answer');
  });
}
