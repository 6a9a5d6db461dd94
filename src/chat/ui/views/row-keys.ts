import type { Narrow } from '../../narrow/narrow.ts';
import { pressName } from '../key-names.ts';

/** A row of the Inbox or Recent conversations: what the arrow keys move between. */
const ROW = '[data-row]';
const FOCUSABLE = 'a[href], button:not([disabled])';
/** How long a muted row is watched for leaving the list (a refused mute leaves it where it is). */
const ROW_WATCH_MS = 10_000;

function focusables(row: Element): HTMLElement[] {
  return [...row.querySelectorAll<HTMLElement>(FOCUSABLE)];
}

/** The row's conversation link (its `[data-row-main]`), else its first focusable element. */
function mainOf(row: Element): HTMLElement | undefined {
  return row.querySelector<HTMLElement>('[data-row-main]') ?? focusables(row)[0];
}

/**
 * Upstream's keys in the Inbox and Recent conversations, for the list's `onKeyDown`: ↓ and ↑ (or
 * j and k) go to the next or previous row's conversation; → and ← (or l and h) go along the row
 * (its channel, its Mark as read). True (and the key used up) when the key moved the focus.
 */
export function moveAmongRows(event: KeyboardEvent, list: HTMLElement): boolean {
  const target = event.target instanceof HTMLElement ? event.target : null;
  const row = target?.closest(ROW);
  if (!target || !row || !list.contains(row)) return false;
  const name = pressName(event);
  const down = name === 'ArrowDown' || name === 'J';
  const up = name === 'ArrowUp' || name === 'K';
  const right = name === 'ArrowRight' || name === 'L';
  const left = name === 'ArrowLeft' || name === 'H';
  if (!down && !up && !right && !left) return false;
  let next: HTMLElement | undefined;
  if (down || up) {
    const rows = [...list.querySelectorAll(ROW)];
    const to = rows[rows.indexOf(row) + (down ? 1 : -1)];
    next = to && mainOf(to);
  } else {
    const here = focusables(row);
    next = here[here.indexOf(target) + (right ? 1 : -1)];
  }
  if (!next) return false;
  event.preventDefault();
  event.stopPropagation();
  next.focus();
  next.scrollIntoView({ block: 'nearest' });
  return true;
}

/** `j` or `↓` in the Inbox or Recent conversations with no row focused: the first row's conversation. */
export function focusFirstRow(): boolean {
  const first = document.querySelector(`main ${ROW}`);
  const main = first && mainOf(first);
  main?.focus();
  return !!main;
}

/**
 * The topic of the focused row (`Shift+M` there mutes it), if the focus is in a topic's row, and
 * a way to keep the focus in the list should the row leave it: on the row after it, or before.
 */
export function focusedTopicRow(): { channelId: number; topic: string; keepFocusNearby(): void } | null {
  const row = document.activeElement?.closest<HTMLElement>('[data-topic]');
  if (!row?.dataset.channelId || row.dataset.topic === undefined) return null;
  const rows = [...document.querySelectorAll(`main ${ROW}`)];
  const at = rows.indexOf(row);
  const neighbours = [rows[at + 1], rows[at - 1]].filter((candidate) => candidate !== undefined);
  return {
    channelId: Number(row.dataset.channelId),
    topic: row.dataset.topic,
    // The row leaves when the server's event comes, after the request's answer: watched until then.
    keepFocusNearby: () => {
      const list = row.closest('main') ?? document.body;
      const watch = new MutationObserver(() => {
        if (row.isConnected) return;
        watch.disconnect();
        // Only a focus lost with the row, not one the person moved meanwhile.
        if (document.activeElement !== document.body) return;
        const next = neighbours.find((candidate) => candidate.isConnected);
        if (next) mainOf(next)?.focus();
      });
      watch.observe(list, { childList: true, subtree: true });
      setTimeout(() => watch.disconnect(), ROW_WATCH_MS);
    },
  };
}

/** A topic's row says which topic it is (the attributes to spread on it): `Shift+M` there mutes it. */
export function topicData(narrow: Narrow): Record<string, string> {
  return narrow.kind === 'channel' && narrow.topic !== undefined ? { 'data-channel-id': String(narrow.channelId), 'data-topic': narrow.topic } : {};
}
