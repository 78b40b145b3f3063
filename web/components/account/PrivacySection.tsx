import type { ReactNode } from 'react';
import styled from 'styled-components';
import { Card } from '../ui/Page';

const Section = styled(Card)`
  display: grid;
  gap: ${({ theme }) => theme.space.lg};
  h2 { margin: 0; color: ${({ theme }) => theme.colors.brand}; font-size: ${({ theme }) => theme.fontSizes.xl}; }
  h3 { margin: 0 0 ${({ theme }) => theme.space.xs}; font-size: ${({ theme }) => theme.fontSizes.lg}; }
  p { margin: 0 0 ${({ theme }) => theme.space.xs}; }
`;

/**
 * My Account's Privacy section. Each privacy control (marketing consent; download my data and
 * delete my account come next) is a child with its own h3, so a new one is added in ProfilePage
 * without touching this frame.
 */
export function PrivacySection({ children }: { children: ReactNode }) {
  return (
    <Section aria-labelledby="privacy-title">
      <h2 id="privacy-title">Privacy</h2>
      {children}
    </Section>
  );
}
