import * as v from 'valibot';

/** At most this many numbers per visitor and competition (docs/product.md#number-alerts). */
export const MAX_NUMBER_ALERTS = 5;

/** POST /api/competitions/:id/number-alerts: numbers someone else holds, to hear about when freed. */
export const NumberAlertsRequestSchema = v.object({
  numbers: v.pipe(
    v.array(
      v.pipe(
        v.number('Each number must be a whole number'),
        v.integer('Each number must be a whole number'),
        v.minValue(1, 'Each number must be at least 1'),
      ),
      'numbers must be a list of ticket numbers',
    ),
    v.minLength(1, 'Choose at least one number'),
    v.maxLength(MAX_NUMBER_ALERTS, `You can ask about at most ${MAX_NUMBER_ALERTS} numbers`),
  ),
});
export type NumberAlertsRequest = v.InferOutput<typeof NumberAlertsRequestSchema>;

/** The answer: every number this visitor is now waiting on in the competition, ascending. */
export interface NumberAlertsView {
  competitionId: number;
  numbers: number[];
}

/**
 * Socket event `numbers:freed`, to the asking visitor's own rooms only: numbers they asked about
 * were released and can be held now (each alert is told once, then ends).
 */
export const NumbersFreedEventSchema = v.object({
  competitionId: v.number(),
  numbers: v.array(v.number()),
});
export type NumbersFreedEvent = v.InferOutput<typeof NumbersFreedEventSchema>;
