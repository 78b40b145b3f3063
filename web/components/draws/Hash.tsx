import styled from 'styled-components';

/** A 64-character hex value: monospace, wrapping anywhere so it never widens a phone's page. */
export const Hash = styled.code`
  font-family: ${({ theme }) => theme.fonts.mono};
  font-size: ${({ theme }) => theme.fontSizes.sm};
  overflow-wrap: anywhere;
  word-break: break-all;
  background: ${({ theme }) => theme.colors.muted};
  border-radius: ${({ theme }) => theme.radii.sm};
  padding: 1px 4px;
`;
