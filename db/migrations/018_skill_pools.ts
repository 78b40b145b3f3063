import type { Knex } from 'knex';
import { DEFAULT_SKILL_QUESTION } from '../../contract/cart';
import { tableDefaults } from '../dialect';

// Issue 18: each competition has a pool of skill questions (JSON, empty = the site's default
// question), wrong answers are counted on the server per account or guest, a competition may
// offer a cash alternative, and a winner's town can be recorded for the published result.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('competitions', (t) => {
    // JSON [{ question, options, answer }]; NULL or [] = the default question.
    t.text('skill_questions').nullable();
    t.integer('cash_alternative_pence').unsigned().nullable();
  });
  // The single question of 003 becomes a pool of one, unless it is the default question.
  const rows = (await knex('competitions')
    .whereNotNull('skillQuestion')
    .select('id', 'skillQuestion', 'skillAnswer')) as Array<{
    id: number;
    skillQuestion: string;
    skillAnswer: string | null;
  }>;
  for (const row of rows) {
    const q = JSON.parse(row.skillQuestion) as { question: string; options: string[] };
    const answer = row.skillAnswer ?? DEFAULT_SKILL_QUESTION.answer;
    if (q.question === DEFAULT_SKILL_QUESTION.question && answer === DEFAULT_SKILL_QUESTION.answer) continue;
    await knex('competitions')
      .where({ id: row.id })
      .update({ skillQuestions: JSON.stringify([{ question: q.question, options: q.options, answer }]) });
  }
  await knex.schema.alterTable('competitions', (t) => {
    t.dropColumn('skill_question');
    t.dropColumn('skill_answer');
  });

  await knex.schema.alterTable('draws', (t) => {
    // Published with the winner's name after the draw; entered by an admin.
    t.string('winner_town', 100).nullable();
  });

  // One row per competition and account ('u:<id>') or guest session ('g:<guest id>'): the times
  // of the wrong answers still inside the 24-hour window. The row is locked while an answer is
  // checked, so parallel wrong answers cannot pass the limit.
  await knex.schema.createTable('skill_attempts', (t) => {
    tableDefaults(knex)(t);
    t.integer('competition_id')
      .unsigned()
      .notNullable()
      .references('id')
      .inTable('competitions')
      .onDelete('CASCADE');
    t.string('attempter', 64).notNullable();
    t.text('wrong_at').notNullable(); // JSON array of epoch ms, ascending
    t.bigInteger('updated_at').notNullable();
    t.primary(['competition_id', 'attempter']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('skill_attempts');
  await knex.schema.alterTable('draws', (t) => {
    t.dropColumn('winner_town');
  });
  await knex.schema.alterTable('competitions', (t) => {
    t.text('skill_question').nullable();
    t.string('skill_answer', 100).nullable();
  });
  // Back to one question each: the first of the pool, else the default.
  const rows = (await knex('competitions').select('id', 'skillQuestions')) as Array<{
    id: number;
    skillQuestions: string | null;
  }>;
  for (const row of rows) {
    const first =
      (
        JSON.parse(row.skillQuestions ?? '[]') as Array<{
          question: string;
          options: string[];
          answer: string;
        }>
      )[0] ?? DEFAULT_SKILL_QUESTION;
    await knex('competitions')
      .where({ id: row.id })
      .update({
        skillQuestion: JSON.stringify({ question: first.question, options: first.options }),
        skillAnswer: first.answer,
      });
  }
  await knex.schema.alterTable('competitions', (t) => {
    t.dropColumn('skill_questions');
    t.dropColumn('cash_alternative_pence');
  });
}
