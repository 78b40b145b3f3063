import styled from 'styled-components';

const Panel = styled.aside`
  background: ${({ theme }) => theme.colors.brand};
  color: ${({ theme }) => theme.colors.textInverse};
  border-radius: ${({ theme }) => theme.radii.lg};
  padding: ${({ theme }) => theme.space.xl};
  display: grid;
  gap: ${({ theme }) => theme.space.lg};
  align-content: start;
  h2 { margin: 0 0 4px; font-size: ${({ theme }) => theme.fontSizes.lg}; color: ${({ theme }) => theme.colors.accent}; }
  p { margin: 0; color: #dbe4f0; }
`;

const POINTS = [
  ['Supporting Good Causes', 'Every month we donate to the registered charities named on our home page.'],
  [
    'Charitable Purpose',
    'Your entries help veterans, a children’s hospice, an animal rescue and retired police dogs.',
  ],
  [
    'Secure Payments',
    'Card payments are handled by our payment provider; we never see or store your card number.',
  ],
  [
    'Trusted Platform',
    'A family-run business with transparent draws, free postal entry and winners contacted within 24-48 hours.',
  ],
] as const;

export function AuthSidePanel() {
  return (
    <Panel>
      {POINTS.map(([title, text]) => (
        <div key={title}>
          <h2>{title}</h2>
          <p>{text}</p>
        </div>
      ))}
    </Panel>
  );
}
