import styled from 'styled-components';

/** The dashed box of the draw's public facts beside the buying controls (commitment, beacon). */
export const DrawInfoBox = styled.section`
  border: 1px dashed ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.md};
  padding: ${({ theme }) => theme.space.sm};
  display: grid;
  gap: ${({ theme }) => theme.space.xxs};
  font-size: ${({ theme }) => theme.fontSizes.sm};
  h2 { margin: 0; font-size: ${({ theme }) => theme.fontSizes.md}; color: ${({ theme }) => theme.colors.brand}; }
  p { margin: 0; color: ${({ theme }) => theme.colors.textMuted}; }
  a { color: ${({ theme }) => theme.colors.info}; }
  strong { color: ${({ theme }) => theme.colors.text}; }
`;
