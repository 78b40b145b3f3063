import type { ReactNode } from 'react';
import type { Charity } from '../../../contract/promoter';
import { useSite } from '../../stores/site';

/** "Registered charity 1234567" as the UK registers write it (Scotland's OSCR: "SC012345"). */
export const charityNumberText = (c: Charity) => `Registered charity ${c.registrationNumber}`;

/**
 * The charities Site Settings name, each with its registration number; nothing (not even the
 * heading `frame` wraps them in) while none are set, so no page names a cause it cannot show.
 */
export function NamedCharities({
  frame,
  item,
}: {
  frame: (list: ReactNode, count: number) => ReactNode;
  item: (charity: Charity) => ReactNode;
}) {
  const charities = useSite((s) => s.charities);
  if (charities.length === 0) return null;
  return frame(
    charities.map((c) => <li key={`${c.name}-${c.registrationNumber}`}>{item(c)}</li>),
    charities.length,
  );
}
