import styled from 'styled-components';
import type { PageInfo } from '../../../contract/paging';
import { Button } from '../ui/Button';

const PagerNav = styled.nav`
  display: flex;
  align-items: center;
  justify-content: center;
  gap: ${({ theme }) => theme.space.md};
  margin-top: ${({ theme }) => theme.space.md};
`;

/** Previous / Page N of M (total noun) / Next, under an admin list that is served a page at a time. */
export function Pager({
  info,
  noun,
  onPage,
}: {
  info: PageInfo;
  noun: string;
  onPage: (page: number) => void;
}) {
  return (
    <PagerNav aria-label="Pages">
      <Button type="button" $variant="ghost" disabled={info.page <= 1} onClick={() => onPage(info.page - 1)}>
        Previous
      </Button>
      <span>
        Page {info.page} of {Math.max(1, info.totalPages)} ({info.total} {noun})
      </span>
      <Button
        type="button"
        $variant="ghost"
        disabled={info.page >= info.totalPages}
        onClick={() => onPage(info.page + 1)}
      >
        Next
      </Button>
    </PagerNav>
  );
}
