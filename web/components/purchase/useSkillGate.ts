import { useCallback, useState } from 'react';

/**
 * The skill question once per page visit (spec): the first action waits for a correct answer and
 * then continues; later ones run at once, until a refusal says the session forgot the answer.
 */
export function useSkillGate<Action>(run: (action: Action) => void) {
  const [passed, setPassed] = useState(false);
  const [askingFor, setAskingFor] = useState<Action | null>(null);

  const start = (action: Action) => {
    if (passed) run(action);
    else setAskingFor(action);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: continues the action asked for
  const onPassed = useCallback(() => {
    const action = askingFor;
    setPassed(true);
    setAskingFor(null);
    if (action !== null) run(action);
  }, [askingFor]);

  return {
    start,
    /** The question is open, for the action waiting on it. */
    asking: askingFor !== null,
    onPassed,
    cancel: () => setAskingFor(null),
    /** The session forgot the answer (e.g. it expired): the next action asks again. */
    forget: () => setPassed(false),
  };
}
