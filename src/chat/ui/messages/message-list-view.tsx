import { useEffect, useLayoutEffect, useMemo, useRef } from 'preact/hooks';
import type { MessageList } from '../../state/message-list.ts';
import { useChat } from '../chat-context.ts';
import { timeFormatter } from '../time-format.ts';
import { useVirtualizer } from '../use-virtualizer.ts';
import { MessageRow } from './message-row.tsx';
import { messageRows, type Row } from './message-rows.ts';
import { RecipientHeader } from './recipient-header.tsx';

/** Fetch more when the window comes this close (in rows) to either end of what is loaded. */
const FETCH_MARGIN = 10;

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
  const { session, selectedId } = useChat();
  const scroller = useRef<HTMLDivElement>(null);
  const settings = session.realm.settings.value;
  const format = useMemo(() => timeFormatter(settings.timezone, settings.twenty_four_hour_time), [settings.timezone, settings.twenty_four_hour_time]);
  const messages = list.messages.value;
  const rows = useMemo(() => messageRows(messages, format.day), [messages, format]);
  const positioned = useRef(false);
  const generation = session.generation.value;

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => estimate(rows[index]),
    getItemKey: (index) => rows[index].key,
    overscan: 6,
    anchorTo: 'end',
    followOnAppend: true,
  });

  useEffect(() => {
    if (!list.loaded || list.stale) void list.load(nearMessageId ?? 'first_unread');
  }, [list, generation]);

  // Once loaded: open at the anchor (first unread or linked message), else at the newest.
  const loading = list.loading.value === 'initial';
  useLayoutEffect(() => {
    if (positioned.current || loading || !list.loaded) return;
    positioned.current = true;
    const anchor = nearMessageId ?? list.anchorId.value;
    const index = rows.findIndex((row) => row.kind === 'message' && row.message.id === anchor);
    if (rows.length > 0) virtualizer.scrollToIndex(index >= 0 ? index : rows.length - 1, { align: index >= 0 && nearMessageId ? 'center' : index >= 0 ? 'start' : 'end' });
    if (nearMessageId !== undefined) selectedId.value = nearMessageId;
    requestAnimationFrame(onFirstDraw);
  });

  const range = virtualizer.range;
  useEffect(() => {
    if (!range || !positioned.current) return;
    if (range.startIndex < FETCH_MARGIN) void list.loadOlder();
    if (range.endIndex > rows.length - FETCH_MARGIN) void list.loadNewer();
    if (document.visibilityState !== 'visible') return;
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

  const items = virtualizer.getVirtualItems();
  return (
    <div class="message-scroller" ref={scroller} tabIndex={-1}>
      {list.error.value && (
        <p class="list-error" role="alert">
          {list.error.value}
        </p>
      )}
      {list.loaded && rows.length === 0 && <p class="empty-narrow">No messages here yet.</p>}
      {list.loading.value === 'initial' && rows.length === 0 && (
        <p class="list-loading" role="status">
          Loading messages…
        </p>
      )}
      <div class="message-rows" style={{ height: `${virtualizer.getTotalSize()}px` }}>
        {items.map((item) => {
          const row = rows[item.index];
          return (
            <div key={item.key} class="row" data-index={item.index} ref={virtualizer.measureElement} style={{ transform: `translateY(${item.start}px)` }}>
              {row.kind === 'recipient' && <RecipientHeader message={row.message} />}
              {row.kind === 'date' && <p class="date-divider">{format.day(row.timestamp)}</p>}
              {row.kind === 'message' && (
                <MessageRow message={row.message} showSender={row.showSender} format={format} readHere={list.readHere.value.has(row.message.id)} />
              )}
            </div>
          );
        })}
      </div>
      {list.loading.value === 'older' && <p class="list-loading top">Loading older messages…</p>}
    </div>
  );
}
