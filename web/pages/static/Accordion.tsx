import { type ReactNode, useId, useState } from 'react';
import styled from 'styled-components';
import { focusRing, inlineLinks } from './StaticParts';

type HeadingLevel = 2 | 3 | 4;

export interface AccordionItemProps {
  /** The always-visible label, usually a question. */
  question: ReactNode;
  /** The answer, hidden until the item is expanded. */
  children: ReactNode;
  /** Heading level that wraps the toggle button, so the page outline stays in order. */
  headingLevel?: HeadingLevel;
  defaultOpen?: boolean;
}

/**
 * One disclosure in an accordion (WAI-ARIA accordion pattern): a heading that holds a real
 * <button aria-expanded aria-controls>, and a panel that is `hidden` until the button is pressed.
 */
export function AccordionItem({
  question,
  children,
  headingLevel = 3,
  defaultOpen = false,
}: AccordionItemProps) {
  const [open, setOpen] = useState(defaultOpen);
  const baseId = useId();
  const buttonId = `${baseId}-button`;
  const panelId = `${baseId}-panel`;
  const headingTag: `h${HeadingLevel}` = `h${headingLevel}`;

  return (
    <Item $open={open}>
      <Heading as={headingTag}>
        <Trigger
          type="button"
          id={buttonId}
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((value) => !value)}
        >
          <span>{question}</span>
          <Chevron
            $open={open}
            aria-hidden="true"
            focusable="false"
            viewBox="0 0 20 20"
            width="20"
            height="20"
          >
            <path
              d="M5 7.5l5 5 5-5"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </Chevron>
        </Trigger>
      </Heading>
      <Panel id={panelId} hidden={!open}>
        {children}
      </Panel>
    </Item>
  );
}

/** Vertical stack of AccordionItems. */
export const AccordionGroup = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.sm};
  max-width: 75ch;
`;

const Item = styled.div<{ $open: boolean }>`
  background: ${({ theme }) => theme.colors.surface};
  border: 1px solid ${({ theme, $open }) => ($open ? theme.colors.brandLight : theme.colors.border)};
  border-radius: ${({ theme }) => theme.radii.md};
  box-shadow: ${({ theme, $open }) => ($open ? theme.shadows.card : 'none')};
  transition: border-color 0.15s ease, box-shadow 0.15s ease;
`;

const Heading = styled.h3`
  margin: 0;
  font-family: ${({ theme }) => theme.fonts.heading};
  font-size: ${({ theme }) => theme.fontSizes.md};
  font-weight: 600;
  line-height: 1.4;
`;

const Trigger = styled.button`
  display: flex;
  width: 100%;
  min-height: 48px;
  align-items: center;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space.md};
  padding: ${({ theme }) => `${theme.space.sm} ${theme.space.md}`};
  border: 0;
  border-radius: ${({ theme }) => theme.radii.md};
  background: transparent;
  color: ${({ theme }) => theme.colors.brand};
  font: inherit;
  text-align: left;
  cursor: pointer;
  &:hover {
    background: ${({ theme }) => theme.colors.muted};
  }
  ${focusRing}
`;

const Chevron = styled.svg<{ $open: boolean }>`
  flex-shrink: 0;
  color: ${({ theme }) => theme.colors.textMuted};
  transform: rotate(${({ $open }) => ($open ? '180deg' : '0deg')});
  transition: transform 0.2s ease;
  @media (prefers-reduced-motion: reduce) {
    transition: none;
  }
`;

const Panel = styled.div`
  padding: ${({ theme }) => `0 ${theme.space.md} ${theme.space.md}`};
  color: ${({ theme }) => theme.colors.text};
  line-height: 1.65;
  &[hidden] {
    display: none;
  }
  p,
  ul,
  ol {
    margin: 0 0 ${({ theme }) => theme.space.sm};
  }
  ul,
  ol {
    padding-left: 1.25rem;
  }
  & > :last-child {
    margin-bottom: 0;
  }
  ${inlineLinks}
`;
