import { useState } from 'react';
import styled from 'styled-components';
import { useSiteName } from '../../stores/site';

// The spec's fallback chain: the logo image, then a second logo image, then the brand name as text.
const SOURCES = ['/images/logo.svg', '/images/logo-alt.svg'];

const Img = styled.img`
  height: 44px;
  width: auto;
`;

const Text = styled.span`
  font-family: ${({ theme }) => theme.fonts.heading};
  font-weight: 700;
  font-size: ${({ theme }) => theme.fontSizes.lg};
  color: ${({ theme }) => theme.colors.textInverse};
`;

export function Logo({ sources = SOURCES }: { sources?: readonly string[] }) {
  const siteName = useSiteName();
  const [index, setIndex] = useState(0);
  const src = sources[index];
  if (!src) return <Text>{siteName}</Text>;
  return <Img src={src} alt={siteName} onError={() => setIndex((i) => i + 1)} />;
}
