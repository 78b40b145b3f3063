/**
 * Callers asking for the same key at once share reads, and each still gets a result read after it
 * asked. A sale makes every watching browser reload the same list in the same moment: with this,
 * a competition costs at most the read in progress plus one more, however many browsers ask.
 *
 * A caller arriving while a read runs does not join it (it may predate the change the caller was
 * told about); it waits for the next read, which every such caller shares.
 */
export function sharedReads<K, T>(read: (key: K) => Promise<T>): (key: K) => Promise<T> {
  const slots = new Map<K, { running?: Promise<T>; next?: Promise<T> }>();
  const start = (key: K, slot: { running?: Promise<T>; next?: Promise<T> }) => {
    const running: Promise<T> = read(key).finally(() => {
      if (slot.running === running) slot.running = undefined;
      if (!slot.running && !slot.next) slots.delete(key);
    });
    slot.running = running;
    return running;
  };
  return (key) => {
    let slot = slots.get(key);
    if (!slot) {
      slot = {};
      slots.set(key, slot);
    }
    const { running, next } = slot;
    if (!running) return start(key, slot);
    if (next) return next;
    const s = slot;
    const settled = running.then(
      () => undefined,
      () => undefined,
    );
    const following = settled.then(() => {
      s.next = undefined;
      return start(key, s);
    });
    s.next = following;
    return following;
  };
}
