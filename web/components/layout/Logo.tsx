import { useState } from 'react';
import styled from 'styled-components';
import { useSiteName } from '../../stores/site';
import { media } from '../../theme/theme';

// The spec's fallback chain: the logo image, then a second logo image, then the brand name as text.
// Each with its intrinsic size, so the browser keeps its room before it loads.
const SOURCES = [
  { src: '/images/logo.svg', width: 240, height: 56 },
  { src: '/images/logo-alt.svg', width: 56, height: 56 },
] as const;

const Img = styled.img`
  height: 36px;
  width: auto;
  flex-shrink: 0;
  ${media.sm} { height: 44px; }
`;

const Text = styled.span`
  font-family: ${({ theme }) => theme.fonts.heading};
  font-weight: 700;
  font-size: ${({ theme }) => theme.fontSizes.lg};
  color: ${({ theme }) => theme.colors.textInverse};
`;

export function Logo() {
  const siteName = useSiteName();
  const [index, setIndex] = useState(0);
  const source = SOURCES[index];
  if (!source) return <Text>{siteName}</Text>;
  return (
    <Img
      src={source.src}
      width={source.width}
      height={source.height}
      alt={siteName}
      onError={() => setIndex((i) => i + 1)}
    />
  );
}
