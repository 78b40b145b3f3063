import styled from 'styled-components';
import { Link } from 'wouter';
import type { CATALOGUE_ROUTES } from '../../../contract/apiCatalogue';
import type { PublicCompetition } from '../../../contract/competitions';
import type { EntryTerms } from '../../../contract/postal';
import { useRoute } from '../../api/call';
import { useSite } from '../../stores/site';
import { Card } from '../ui/Page';

// The free entry route, beside the buying controls with the same weight (Gambling Act 2005 s.14;
// DCMS: a clear free entry route). The address comes from Site Settings. Other panels link here
// with #free-entry.

const Panel = styled(Card)`
  border: 2px solid ${({ theme }) => theme.colors.brand};
  scroll-margin-top: 7rem;
  h2 { margin: 0 0 ${({ theme }) => theme.space.sm}; color: ${({ theme }) => theme.colors.brand}; font-size: ${({ theme }) => theme.fontSizes.lg}; }
  p { margin: 0 0 ${({ theme }) => theme.space.sm}; }
  address { font-style: normal; font-weight: 700; white-space: pre-line; margin-bottom: ${({ theme }) => theme.space.sm}; }
`;

/** The postal address as printed, or whom to ask while none is set. */
function PostalAddress({ terms }: { terms: EntryTerms | undefined }) {
  const supportEmail = useSite((s) => s.supportEmail);
  if (!terms) return null;
  if (terms.postalAddress) return <address data-testid="postal-address">{terms.postalAddress}</address>;
  return <p>the postal entry address, which we give to anyone who asks: email {supportEmail}.</p>;
}

export function FreeEntryRoute({ competition, closed }: { competition: PublicCompetition; closed: boolean }) {
  const terms = useRoute<typeof CATALOGUE_ROUTES.entryTerms>({ method: 'GET', path: '/api/entry-terms' }, {});
  return (
    <Panel id="free-entry" aria-labelledby="free-entry-title">
      <h2 id="free-entry-title">Enter for free by post</h2>
      {closed ? (
        <p>This competition is closed, so postal entries are no longer accepted.</p>
      ) : (
        <>
          <p>
            Send a handwritten postcard with your full name, postal address, phone number and e-mail address,
            the competition name "{competition.title}" and your answer to its skill question to:
          </p>
          <PostalAddress terms={terms.data} />
          <p>
            One postcard is one entry, given a random available number. Postal entries have exactly the same
            chance of winning as paid ones and count towards the limit of {competition.maxTicketsPerUser}{' '}
            entries per person. Your postcard must arrive before the competition closes.
          </p>
        </>
      )}
      <p>
        Full details are in the Free Postal Entry section of our{' '}
        <Link href="/terms#free-entry">terms and conditions</Link>.
      </p>
    </Panel>
  );
}
