import { useEffect } from 'react';
import { Lead, PageContainer, PageTitle } from '../../components/ui/Page';
import { useSiteName } from '../../stores/site';
import { PRIVACY_POLICY } from './privacyContent';
import { RelatedLinks, StaticProse } from './StaticParts';

/** The Privacy Policy: the lead and `privacyContent.tsx`. */
export default function PrivacyPage() {
  const siteName = useSiteName();

  useEffect(() => {
    document.title = `Privacy Policy | ${siteName}`;
  }, [siteName]);

  return (
    <PageContainer>
      <PageTitle>Privacy Policy</PageTitle>
      <Lead>
        This policy explains what personal information {siteName} collects when you use our website and enter
        our competitions, why we collect it, how long we keep it and the rights you have under UK data
        protection law.
      </Lead>

      <StaticProse>{PRIVACY_POLICY}</StaticProse>

      <RelatedLinks
        links={[
          { href: '/cookies', label: 'Cookie Policy' },
          { href: '/terms', label: 'Terms & Conditions' },
          { href: '/faq', label: 'FAQs' },
          { href: '/', label: 'Back to home' },
        ]}
      />
    </PageContainer>
  );
}
