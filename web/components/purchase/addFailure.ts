import { ERROR_CODES } from '../../../contract/errors';
import { ApiError, selfExcludedNoticeOf, takenNumbersOf } from '../../api/client';
import { toast } from '../../stores/toast';
import { listNumbers, plural } from './selection';

/** What a refusal says the panel holds that is no longer true. */
export interface StaleAfterRefusal {
  /** Others took these chosen numbers: drop them and keep the rest. */
  dropTaken: (taken: number[]) => void;
  /** The session no longer remembers the skill answer (e.g. it expired): ask again. */
  forgetSkill: () => void;
}

/**
 * Tells the visitor why adding to the cart failed. Decided by the error code, never the status:
 * a 403 for self-exclusion or a missing date of birth says nothing about the skill answer.
 */
export function reportAddFailure(err: unknown, stale: StaleAfterRefusal) {
  const taken = takenNumbersOf(err);
  const onBreak = selfExcludedNoticeOf(err);
  if (onBreak) {
    // Calm, not an error: the customer chose the break.
    toast({ title: 'Taking a break', description: onBreak });
  } else if (taken?.length) {
    stale.dropTaken(taken);
    toast({
      title: 'Numbers no longer available',
      description: `${plural(taken.length, 'Number')} ${listNumbers(taken)} ${taken.length === 1 ? 'was' : 'were'} just taken by another user. Your other numbers are still selected.`,
      variant: 'destructive',
    });
  } else if (err instanceof ApiError && err.code === ERROR_CODES.notEnoughTickets) {
    toast({
      title: 'Not enough tickets available',
      description: err.serverMessage,
      variant: 'destructive',
    });
  } else if (err instanceof ApiError && err.code === ERROR_CODES.skillRequired) {
    stale.forgetSkill();
    toast({
      title: 'Error',
      description: err.serverMessage ?? 'Please answer the skill question first',
      variant: 'destructive',
    });
  } else if (err instanceof ApiError && err.status < 500 && err.serverMessage) {
    toast({ title: 'Error', description: err.serverMessage, variant: 'destructive' });
  } else {
    toast({
      title: 'Error',
      description: 'Failed to add item to cart. Please try again.',
      variant: 'destructive',
    });
  }
}
