// happy-dom lays nothing out, and its IntersectionObserver never calls back: this stand-in reports
// every element in view as soon as it is observed, as allRowsVirtualizer.ts shows every row, so
// a grid that waits to be near the viewport (useNearViewport) renders in these tests.
class InViewObserver {
  constructor(private readonly callback: IntersectionObserverCallback) {}
  observe(target: Element) {
    const entry = { isIntersecting: true, target } as IntersectionObserverEntry;
    this.callback([entry], this as unknown as IntersectionObserver);
  }
  unobserve() {}
  disconnect() {}
  takeRecords() {
    return [];
  }
}

globalThis.IntersectionObserver = InViewObserver as unknown as typeof IntersectionObserver;
