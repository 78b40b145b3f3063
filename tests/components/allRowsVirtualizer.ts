// happy-dom lays nothing out, so the virtual grid would show no rows: this stand-in for
// @tanstack/react-virtual shows every row (vi.mock('@tanstack/react-virtual', () => import(...))).
export const useVirtualizer = ({ count, estimateSize }: { count: number; estimateSize: () => number }) => ({
  getVirtualItems: () =>
    Array.from({ length: count }, (_, index) => ({ index, key: index, start: index * estimateSize() })),
  getTotalSize: () => count * estimateSize(),
  range: null,
  scrollToIndex: () => undefined,
});
