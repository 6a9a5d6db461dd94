import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { marksReadWhenShown } from '../../narrow/narrow.ts';
import { type MessageList, withoutMutedDms } from '../../state/message-list.ts';
import { useChat } from '../chat-context.ts';
import { timeFormatter } from '../time-format.ts';
import { useVirtualizer } from '../use-virtualizer.ts';
import { type ListControl, messageListControl, NO_LIST } from './list-control.ts';
import { MessageRow } from './message-row.tsx';
import { messageRows, type Row } from './message-rows.ts';
import { RecipientHeader } from './recipient-header.tsx';

/**
 * Fetch more when the window comes this close (in rows, ~3 screens) to either end of what is
 * loaded. Ten rows was too close: a reader wheeling back through a long topic reached the top
 * before the older page came, and there the prepended rows did not keep the reader's place, so
 * each page pulled in the next (bench/browser/long-topic-scroll.ts).
 */
const FETCH_MARGIN = 60;

function estimate(row: Row): number {
  if (row.kind !== 'message') return 34;
  return row.showSender ? 62 : 30;
}

interface Props {
  list: MessageList;
  nearMessageId?: number;
  /** Called once the first messages (or the empty notice) are on screen. */
  onFirstDraw(): void;
}

/**
 * The narrow's messages as a windowed list (@tanstack/virtual-core): only the rows near the
 * viewport are in the DOM, so thousands of messages scroll smoothly. It opens at the first
 * unread (or a linked) message, grows both ways as the reader scrolls, keeps its place when
 * older messages arrive above, follows new ones at the bottom, and marks what is seen as read.
 */
export function MessageListView({ list, nearMessageId, onFirstDraw }: Props) {
  const { session } = useChat();
  const generation = session.generation.value;
  // Before the paint, not after it: the messages are what the new view waits for.
  useLayoutEffect(() => {
    // Not while loading: the session may have started this list's first page itself.
    if ((!list.loaded && list.loading.peek() === null) || list.stale) void list.load(nearMessageId ?? 'first_unread');
  }, [list, generation]);
  // Opened again: what it shows is read again (a "Mark as unread from here" paused that).
  useLayoutEffect(() => {
    list.readingPaused.value = false;
  }, [list]);

  // The window opens once the first page is here, directly at its anchor.
  if (list.loaded) return <MessageWindow list={list} nearMessageId={nearMessageId} onFirstDraw={onFirstDraw} />;
  return (
    <div class="message-scroller" tabIndex={-1}>
      {list.error.value ? (
        <p class="list-error" role="alert">
          {list.error.value}
        </p>
      ) : (
        <p class="list-loading" role="status">
          Loading messages…
        </p>
      )}
    </div>
  );
}

/** Where the list opens: the anchor (first unread, or the linked message in the middle), else the newest. */
function openingPlace(rows: readonly Row[], anchorId: number | null | undefined, linked: boolean): { index: number; align: 'start' | 'center' | 'end' } {
  const index = rows.findIndex((row) => row.kind === 'message' && row.message.id === anchorId);
  if (index < 0) return { index: rows.length - 1, align: 'end' };
  return { index, align: linked ? 'center' : 'start' };
}

/** The opening place's scroll offset by the rows' estimated sizes, so the first render holds the right rows. */
function estimatedOffset(rows: readonly Row[], place: ReturnType<typeof openingPlace>, height: number): number {
  let before = 0;
  for (let index = 0; index < place.index; index += 1) before += estimate(rows[index]);
  const size = place.index >= 0 ? estimate(rows[place.index]) : 0;
  const offset = place.align === 'start' ? before : place.align === 'center' ? before + size / 2 - height / 2 : before + size - height;
  return Math.max(0, offset);
}

function MessageWindow({ list, nearMessageId, onFirstDraw }: Props) {
  const { session, selectedId, composer } = useChat();
  const scroller = useRef<HTMLDivElement>(null);
  const settings = session.realm.settings.value;
  const format = useMemo(() => timeFormatter(settings.timezone, settings.twenty_four_hour_time), [settings.timezone, settings.twenty_four_hour_time]);
  const muted = session.realm.mutedUsers.value;
  const messages = useMemo(() => withoutMutedDms(list.messages.value, list.narrow, muted, session.me), [list.messages.value, muted]);
  const rows = useMemo(() => messageRows(messages, format.day), [messages, format]);
  const positioned = useRef(false);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => estimate(rows[index]),
    getItemKey: (index) => rows[index].key,
    overscan: 6,
    // Until the scroller is measured: the window's height, and the opening place by estimates.
    initialRect: { width: innerWidth, height: innerHeight },
    initialOffset: () => estimatedOffset(rows, openingPlace(rows, nearMessageId ?? list.anchorId.peek(), nearMessageId !== undefined), innerHeight),
    anchorTo: 'end',
    followOnAppend: true,
  });

  // Then the exact place, once the rows are measured (a reload of the list keeps its place).
  const loading = list.loading.value === 'initial';
  useLayoutEffect(() => {
    if (positioned.current || loading) return;
    positioned.current = true;
    const place = openingPlace(rows, nearMessageId ?? list.anchorId.value, nearMessageId !== undefined);
    if (rows.length > 0) virtualizer.scrollToIndex(place.index, { align: place.align });
    // The linked message is the selected one; else none, whatever the view before had selected.
    selectedId.value = nearMessageId ?? null;
    requestAnimationFrame(onFirstDraw);
  });

  const range = virtualizer.range;
  useEffect(() => {
    if (!range || !positioned.current) return;
    if (range.startIndex < FETCH_MARGIN) void list.loadOlder();
    if (range.endIndex > rows.length - FETCH_MARGIN) void list.loadNewer();
    if (document.visibilityState !== 'visible' || !marksReadWhenShown(list.narrow) || list.readingPaused.value) return;
    const unread = session.realm.unread.value;
    const seen: number[] = [];
    for (let index = range.startIndex; index <= range.endIndex; index += 1) {
      const row = rows[index];
      if (row?.kind === 'message' && unread.has(row.message.id)) seen.push(row.message.id);
    }
    if (seen.length === 0) return;
    list.readHere.value = new Set([...list.readHere.value, ...seen]);
    session.markRead(seen);
  }, [range?.startIndex, range?.endIndex, rows]);

  // A message just sent from this screen into this list but below the view once the list has
  // settled (the reader was scrolled up): "Sent!" with a way down to it, as upstream's web app.
  const sentId = composer.lastSentId.value;
  const sentIndex = sentId === null ? -1 : rows.findLastIndex((row) => row.kind === 'message' && row.message.id === sentId);
  const [sentOutOfView, setSentOutOfView] = useState(false);
  // A message sent before this list opened is not announced: the person sent it from elsewhere.
  const seenSent = useRef<number | null>(composer.lastSentId.peek());
  useEffect(() => {
    if (sentIndex < 0 || seenSent.current === sentId) return setSentOutOfView(false);
    let live = true;
    // Two frames: the list follows a new last message once it is measured.
    requestAnimationFrame(() => requestAnimationFrame(() => {
      if (!live) return;
      const item = virtualizer.measurementsCache[sentIndex];
      const top = virtualizer.scrollOffset ?? 0;
      const inView = item !== undefined && item.start < top + (virtualizer.scrollRect?.height ?? 0) && item.end > top;
      if (inView) seenSent.current = sentId;
      setSentOutOfView(!inView);
    }));
    return () => {
      live = false;
    };
  }, [sentId, sentIndex, range?.startIndex, range?.endIndex]);

  // The button goes once the message is in view: the message becomes the selected one and the
  // list takes the focus, so the keyboard carries on from there.
  const showSent = () => {
    virtualizer.scrollToIndex(sentIndex, { align: 'end' });
    selectedId.value = sentId;
    scroller.current?.focus({ preventScroll: true });
  };

  // Scrolled up from the newest messages (or opened above them): upstream's arrow down to them.
  const latestRows = useRef(rows);
  latestRows.current = rows;
  const lastIndex = rows.length - 1;
  const awayFromNewest = !list.foundNewest.value || (range !== null && range.endIndex < lastIndex - 1);
  const toNewest = async () => {
    if (!list.foundNewest.peek()) await list.load('newest');
    // After the rows of a newest page are drawn and measured.
    requestAnimationFrame(() => virtualizer.scrollToIndex(latestRows.current.length - 1, { align: 'end' }));
    scroller.current?.focus({ preventScroll: true });
  };

  useLayoutEffect(() => {
    const indexOf = (id: number) => latestRows.current.findIndex((row) => row.kind === 'message' && row.message.id === id);
    const select = (index: number, align: 'start' | 'end' | 'auto') => {
      const row = latestRows.current[index];
      if (row?.kind !== 'message') return;
      virtualizer.scrollToIndex(index, { align });
      selectedId.value = row.message.id;
    };
    const selectNewest = () => select(latestRows.current.findLastIndex((row) => row.kind === 'message'), 'end');
    const control: ListControl = {
      select: (id) => select(indexOf(id), 'auto'),
      first: () => select(latestRows.current.findIndex((row) => row.kind === 'message'), 'start'),
      // Not yet loaded: the newest page first, its rows drawn and measured a frame after it came.
      last: () => (list.foundNewest.peek() ? selectNewest() : void list.load('newest').then(() => requestAnimationFrame(selectNewest))),
      page: (direction) => {
        const element = scroller.current;
        element?.scrollBy({ top: direction * element.clientHeight * 0.9 });
      },
    };
    messageListControl.current = control;
    return () => {
      if (messageListControl.current === control) messageListControl.current = NO_LIST;
    };
  }, [list]);

  const items = virtualizer.getVirtualItems();
  return (
    <div class="message-window">
      <div class="message-scroller" ref={scroller} tabIndex={-1}>
        {list.error.value && (
          <p class="list-error" role="alert">
            {list.error.value}
          </p>
        )}
        {rows.length === 0 && <p class="empty-narrow">No messages here yet.</p>}
        <div class="message-rows" style={{ height: `${virtualizer.getTotalSize()}px` }}>
          {items.map((item) => {
            const row = rows[item.index];
            return (
              <div key={item.key} class="row" data-index={item.index} ref={virtualizer.measureElement} style={{ transform: `translateY(${item.start}px)` }}>
                {row.kind === 'recipient' && <RecipientHeader message={row.message} format={format} />}
                {row.kind === 'message' && (
                  <MessageRow message={row.message} showSender={row.showSender} format={format} readHere={list.readHere.value.has(row.message.id)} />
                )}
              </div>
            );
          })}
        </div>
        {list.loading.value === 'older' && <p class="list-loading top">Loading older messages…</p>}
        {sentOutOfView && (
          <p class="sent-out-of-view" role="status">
            Sent!{' '}
            <button type="button" onClick={showSent}>
              Scroll down to view your message.
            </button>
          </p>
        )}
      </div>
      {awayFromNewest && rows.length > 0 && !sentOutOfView && (
        <button type="button" class="to-newest" aria-label="Scroll to the newest messages" title="Scroll to the newest messages" onClick={() => void toNewest()}>
          ↓
        </button>
      )}
    </div>
  );
}
