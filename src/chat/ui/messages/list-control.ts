/** What the keyboard does to the shown message list; the list on screen sets {@link messageListControl}. */
export interface ListControl {
  /** Selects the message and scrolls it into view. */
  select(id: number): void;
  /** Selects the first loaded message (`Home`). */
  first(): void;
  /** Selects the newest message, loading it first if need be (`End`). */
  last(): void;
  /** Scrolls a screenful up or down (`PgUp`, `PgDn`). */
  page(direction: 1 | -1): void;
}

export const NO_LIST: ListControl = { select() {}, first() {}, last() {}, page() {} };

/** The shown list's control; {@link NO_LIST} while none is shown. */
export const messageListControl: { current: ListControl } = { current: NO_LIST };
