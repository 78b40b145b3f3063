import { create } from 'zustand';
import { ERROR_CODES } from '../../contract/errors';
import { onApiErrorCode } from '../api/client';

// An account made before the date of birth was asked gets 403 date_of_birth_required when it
// holds or pays (docs/product.md#age-checks); whichever screen it was, one prompt asks for it.

interface DateOfBirthPromptState {
  open: boolean;
  ask: () => void;
  close: () => void;
}

export const useDateOfBirthPrompt = create<DateOfBirthPromptState>((set) => ({
  open: false,
  ask: () => set({ open: true }),
  close: () => set({ open: false }),
}));

onApiErrorCode(ERROR_CODES.dateOfBirthRequired, () => useDateOfBirthPrompt.getState().ask());
