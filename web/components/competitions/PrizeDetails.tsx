import styled from 'styled-components';

const Section = styled.section`
  margin-top: ${({ theme }) => theme.space.xxl};
  background: ${({ theme }) => theme.colors.surface};
  border-radius: ${({ theme }) => theme.radii.lg};
  box-shadow: ${({ theme }) => theme.shadows.card};
  padding: ${({ theme }) => theme.space.lg};
  h2 { margin: 0 0 ${({ theme }) => theme.space.sm}; color: ${({ theme }) => theme.colors.brand}; }
  p { margin: 0 0 ${({ theme }) => theme.space.sm}; }
  ul { margin: 0; padding: 0; list-style: none; display: grid; gap: 6px; }
  li { display: flex; gap: ${({ theme }) => theme.space.xs}; }
  li::before { content: '✔' / ''; color: ${({ theme }) => theme.colors.success}; }
`;

/**
 * What the admin wrote about the prize (its product name and its features, one a line: delivery,
 * how it is drawn, any cash alternative), shown as written (docs/product.md#competition-detail).
 */
export function PrizeDetails({
  productName,
  features,
}: {
  productName?: string | undefined;
  features: string[];
}) {
  const lines = features.map((f) => f.trim()).filter(Boolean);
  if (!productName && lines.length === 0) return null;
  return (
    <Section aria-labelledby="prize-details-title" data-testid="prize-details">
      <h2 id="prize-details-title">Prize details</h2>
      {productName && (
        <p>
          <strong>Prize:</strong> {productName}
        </p>
      )}
      {lines.length > 0 && (
        <ul>
          {lines.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
    </Section>
  );
}
