import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { CompetitionCreateSchema } from '../../contract/admin';
import {
  competitionBody,
  competitionFormErrors,
  competitionValues,
  emptyCompetitionValues,
  formFieldOf,
} from '../../web/components/admin/competitionForm';

describe('the competition form', () => {
  it('has the spec defaults and makes a body the contract accepts once filled', () => {
    const values = { ...emptyCompetitionValues(), title: 'Prize', ticketPrice: '2.50' };
    expect(values.totalTickets).toBe('1000');
    expect(values.category).toBe('Electronics');
    expect(values.status).toBe('active');
    expect(values.autoWin).toBe(false);
    const parsed = v.parse(CompetitionCreateSchema, competitionBody({ ...values, features: 'A\n\n B ' }));
    expect(parsed.ticketPrice).toBe(2.5);
    expect(parsed.totalTickets).toBe(1000);
    expect(parsed.features).toEqual(['A', 'B']);
    expect(parsed.maxTicketsPerUser).toBeNull();
    // No questions of its own: the site's default question is asked.
    expect(parsed.skillQuestions).toEqual([]);
    expect(parsed.cashAlternative).toBeNull();
  });

  it('sends the multi-buy offers as numbers and refuses one that is no bargain before sending', () => {
    const values = {
      ...emptyCompetitionValues(),
      title: 'Prize',
      ticketPrice: '1.00',
      bundles: [
        { quantity: '5', price: '4.00' },
        { quantity: '10', price: '7.50' },
      ],
    };
    expect(competitionBody(values).bundles).toEqual([
      { quantity: 5, price: 4 },
      { quantity: 10, price: 7.5 },
    ]);
    expect(competitionFormErrors(values, '2000-01-01')).toEqual({});
    const dear = { ...values, bundles: [{ quantity: '5', price: '5' }] };
    expect(competitionFormErrors(dear, '2000-01-01').bundles).toBe(
      'The 5-ticket bundle must cost less than 5 single tickets (£5.00)',
    );
    const tooSmall = { ...values, bundles: [{ quantity: '1', price: '0.50' }] };
    expect(competitionFormErrors(tooSmall, '2000-01-01').bundles).toBe(
      'Bundle quantity must be a whole number of at least 2',
    );
  });

  it("reports the spec's messages against the form's fields", () => {
    const body = competitionBody({
      ...emptyCompetitionValues(),
      totalTickets: '0',
      category: '',
      endDate: '',
    });
    const result = v.safeParse(CompetitionCreateSchema, body);
    expect(result.success).toBe(false);
    const errors: Record<string, string> = {};
    for (const i of result.issues ?? []) errors[formFieldOf(i.path)] ??= i.message;
    expect(errors).toMatchObject({
      title: 'Title is required',
      totalTickets: 'Total tickets must be at least 1',
      category: 'Category is required',
      endDate: 'End date must be a valid date',
    });
  });

  it('asks for a category again when the stored one is not in the admin list', () => {
    const values = competitionValues({
      id: 1,
      title: 'Old',
      description: '',
      image: null,
      images: [],
      ticketPrice: 1,
      totalTickets: 10,
      ticketsSold: 0,
      endDate: '2026-07-15T19:00:00.000Z',
      startsAt: null,
      autoWin: false,
      status: 'active',
      features: [],
      details: { category: 'Gadgets' },
      maxTicketsPerUser: 5,
      skillQuestion: { question: 'Q?', options: ['a', 'b', 'c'], answer: 'b' },
      skillQuestions: [{ question: 'Q?', options: ['a', 'b', 'c'], answer: 'b' }],
      cashAlternative: 250,
      prizeValue: null,
      prizes: [
        { title: 'Old', description: null, cashValuePence: null, cashAlternativePence: null, image: null },
      ],
      minTicketsSold: null,
      extendByDays: 7,
      maxExtensions: 0,
      extensionsUsed: 0,
      cancellationReason: null,
      bundles: [],
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
    expect(values.category).toBe('');
    expect(values.ticketPrice).toBe('1.00');
    expect(values.endTime).toBe('20:00');
    expect(values.maxTicketsPerUser).toBe('5');
    expect(values.cashAlternative).toBe('250.00');
    expect(values.questions).toEqual([{ question: 'Q?', options: 'a\nb\nc', answer: 'b' }]);
  });

  it('sends the skill question pool and names its errors by question', () => {
    const body = competitionBody({
      ...emptyCompetitionValues(),
      title: 'Prize',
      ticketPrice: '1',
      questions: [
        { question: 'Sky?', options: 'Blue\nGreen\nRed', answer: 'Blue' },
        { question: 'Two?', options: 'a\nb', answer: 'a' },
      ],
    });
    expect(body.skillQuestions[0]).toEqual({
      question: 'Sky?',
      options: ['Blue', 'Green', 'Red'],
      answer: 'Blue',
    });
    const result = v.safeParse(CompetitionCreateSchema, body);
    const errors: Record<string, string> = {};
    for (const i of result.issues ?? []) errors[formFieldOf(i.path)] ??= i.message;
    expect(errors).toEqual({ 'skillQuestions.1.options': 'Give 3 or 4 answer options' });
  });
});
