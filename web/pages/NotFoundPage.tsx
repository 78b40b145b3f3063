import { useEffect } from 'react';
import styled from 'styled-components';
import { Link } from 'wouter';
import { ButtonLink } from '../components/ui/Button';
import { PageContainer } from '../components/ui/Page';
import { useSiteName } from '../stores/site';

const Centered = styled.div`
  text-align: center;
  padding: ${({ theme }) => theme.space.xxl} 0;
  display: grid;
  gap: ${({ theme }) => theme.space.md};
  justify-items: center;
`;

export default function NotFoundPage() {
  const siteName = useSiteName();
  useEffect(() => {
    document.title = `404 Page Not Found | ${siteName}`;
  }, [siteName]);
  return (
    <PageContainer>
      <Centered>
        <h1>404 Page Not Found</h1>
        <p>The page you are looking for does not exist or has moved.</p>
        <Link href="/" asChild>
          <ButtonLink>Return to Homepage</ButtonLink>
        </Link>
      </Centered>
    </PageContainer>
  );
}
