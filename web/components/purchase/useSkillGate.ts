import { useCallback, useRef, useState } from 'react';
import type { CATALOGUE_ROUTES } from '../../../contract/apiCatalogue';
import { call } from '../../api/call';

/**
 * The skill question once (spec): the first action waits for a correct answer and then continues;
 * later ones run at once, until a refusal says the session forgot the answer. A visitor who passed
 * it on an earlier visit is not asked again: before asking, the session's own record is read
 * (`passed` of the question's GET).
 */
export function useSkillGate<Action>(competitionId: number, run: (action: Action) => void) {
  const [passed, setPassed] = useState(false);
  const [askingFor, setAskingFor] = useState<Action | null>(null);
  const checking = useRef(false);

  const start = async (action: Action) => {
    if (passed) return run(action);
    if (checking.current) return;
    checking.current = true;
    let known = false;
    try {
      const view = await call<typeof CATALOGUE_ROUTES.skillQuestion>(
        { method: 'GET', path: '/api/competitions/:id/skill-question' },
        { params: { id: competitionId } },
      );
      known = view.passed;
    } catch {
      // The dialog loads the question again and says what went wrong.
    } finally {
      checking.current = false;
    }
    if (known) {
      setPassed(true);
      run(action);
    } else setAskingFor(action);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: continues the action asked for
  const onPassed = useCallback(() => {
    const action = askingFor;
    setPassed(true);
    setAskingFor(null);
    if (action !== null) run(action);
  }, [askingFor]);

  return {
    start: (action: Action) => void start(action),
    /** The question is open, for the action waiting on it. */
    asking: askingFor !== null,
    onPassed,
    cancel: () => setAskingFor(null),
    /** The session forgot the answer (e.g. it expired): the next action asks again. */
    forget: () => setPassed(false),
  };
}
