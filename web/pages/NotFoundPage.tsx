import { useEffect } from 'react';
import { Link } from 'wouter';
import { ButtonLink } from '../components/ui/Button';
import { CenteredMessage, PageContainer } from '../components/ui/Page';
import { useSiteName } from '../stores/site';

export default function NotFoundPage() {
  const siteName = useSiteName();
  useEffect(() => {
    document.title = `404 Page Not Found | ${siteName}`;
  }, [siteName]);
  return (
    <PageContainer>
      <CenteredMessage>
        <h1>404 Page Not Found</h1>
        <p>The page you are looking for does not exist or has moved.</p>
        <Link href="/" asChild>
          <ButtonLink>Return to Homepage</ButtonLink>
        </Link>
      </CenteredMessage>
    </PageContainer>
  );
}
