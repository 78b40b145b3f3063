import styled from 'styled-components';
import { media } from '../../theme/theme';

/** Centred content column used by every page. */
export const PageContainer = styled.div`
  max-width: ${({ theme }) => theme.maxWidth};
  margin: 0 auto;
  padding: ${({ theme }) => `${theme.space.lg} ${theme.space.md} ${theme.space.xxl}`};
  ${media.md} {
    padding: ${({ theme }) => `${theme.space.xl} ${theme.space.lg} ${theme.space.xxl}`};
  }
`;

export const PageTitle = styled.h1`
  font-family: ${({ theme }) => theme.fonts.heading};
  font-size: ${({ theme }) => theme.fontSizes.xxl};
  color: ${({ theme }) => theme.colors.brand};
  margin: 0 0 ${({ theme }) => theme.space.md};
  ${media.md} {
    font-size: ${({ theme }) => theme.fontSizes.display};
  }
`;

export const Lead = styled.p`
  font-size: ${({ theme }) => theme.fontSizes.lg};
  color: ${({ theme }) => theme.colors.textMuted};
  margin: 0 0 ${({ theme }) => theme.space.xl};
  max-width: 70ch;
`;

export const Card = styled.section`
  background: ${({ theme }) => theme.colors.surface};
  border-radius: ${({ theme }) => theme.radii.lg};
  box-shadow: ${({ theme }) => theme.shadows.card};
  padding: ${({ theme }) => theme.space.lg};
`;

/** Long-form text (legal pages, about): readable measure and spacing. */
export const Prose = styled.div`
  max-width: 75ch;
  line-height: 1.65;
  color: ${({ theme }) => theme.colors.text};
  h2 {
    font-family: ${({ theme }) => theme.fonts.heading};
    color: ${({ theme }) => theme.colors.brand};
    font-size: ${({ theme }) => theme.fontSizes.xl};
    margin: ${({ theme }) => `${theme.space.xl} 0 ${theme.space.sm}`};
  }
  h3 {
    font-family: ${({ theme }) => theme.fonts.heading};
    font-size: ${({ theme }) => theme.fontSizes.lg};
    margin: ${({ theme }) => `${theme.space.lg} 0 ${theme.space.xs}`};
  }
  p, ul, ol {
    margin: 0 0 ${({ theme }) => theme.space.md};
  }
  a {
    color: ${({ theme }) => theme.colors.info};
  }
`;

/** A centred message with its actions: not-found pages, sign-in prompts, empty states. */
export const CenteredMessage = styled.div`
  text-align: center;
  padding: ${({ theme }) => theme.space.xxl} 0;
  display: grid;
  gap: ${({ theme }) => theme.space.md};
  justify-items: center;
  h1 { margin: 0; color: ${({ theme }) => theme.colors.brand}; }
`;
