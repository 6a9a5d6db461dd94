import { signal, useSignal, useSignalEffect } from '@preact/signals';
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { Message } from '../../api/wire-types.ts';
import { useChat } from '../chat-context.ts';
import { route } from '../navigation.ts';
import { pressName } from '../key-names.ts';
import { moveAmongChoices, usePopupDismiss } from '../popup-dismiss.ts';
import { canEditContent, copyLink, forwardMessage, mayMoveMessage, editing, markUnreadFromHere, messageDialog, quoteReply, setRevealed, toggleCollapsed, toggleStar } from './message-operations.ts';

/** `i` (upstream's message actions menu): the message whose menu opens, or closes if open. */
export const menuToggleRequest = signal<number | null>(null);

/** The buttons on a message (shown on hover, focus or selection); the rarer ones behind "More actions". */
export function MessageActions({ message }: { message: Message }) {
  const { session, composer } = useChat();
  const menuOpen = useSignal(false);
  const starred = message.flags.includes('starred');
  const realm = session.realm;
  // Offered as upstream offers them, to those the realm's settings let do it; the server decides.
  const mayMove = mayMoveMessage(session, message);
  const mayDelete = realm.mayDelete(message);
  const close = () => (menuOpen.value = false);
  const holder = useRef<HTMLDivElement>(null);
  usePopupDismiss(menuOpen, holder);
  const menu = useRef<HTMLDivElement>(null);
  // A chosen item leaves the focus on ⋯ (unless it moved the focus itself, as Forward does): a
  // dialog it opens hands the focus back there when it closes, not to the page.
  const closeAfterChoice = () => {
    if (menu.current?.contains(document.activeElement)) holder.current?.querySelector<HTMLElement>('[aria-haspopup]')?.focus();
    close();
  };
  const openedByKey = useRef(false);
  useSignalEffect(() => {
    if (menuToggleRequest.value !== message.id) return;
    menuToggleRequest.value = null;
    openedByKey.current = !menuOpen.peek();
    menuOpen.value = !menuOpen.peek();
  });
  const opensUp = useSignal(false);
  const maxHeight = useSignal<number | undefined>(undefined);
  // The list clips what hangs below it: near its bottom (the newest messages) the menu opens
  // upward; where neither side has room for it (a phone), it scrolls within the larger one.
  useLayoutEffect(() => {
    const element = menu.current;
    const bar = element?.parentElement;
    const scroller = element?.closest('.message-scroller');
    if (!element || !bar || !scroller) {
      opensUp.value = false;
      maxHeight.value = undefined;
      return;
    }
    const room = scroller.getBoundingClientRect();
    const anchor = bar.getBoundingClientRect();
    const below = room.bottom - anchor.bottom;
    const above = anchor.top - room.top;
    const height = element.scrollHeight;
    opensUp.value = height > below && above > below;
    const space = (opensUp.value ? above : below) - 8;
    maxHeight.value = height > space ? Math.max(space, 120) : undefined;
    // Opened from the keyboard: the arrow keys go on from its first choice.
    if (openedByKey.current) element.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    openedByKey.current = false;
  }, [menuOpen.value]);
  return (
    <div class="message-actions" ref={holder}>
      <button type="button" class="icon-button" aria-label="Add reaction" title="Add reaction" onClick={() => (messageDialog.value = { kind: 'react', message })}>
        ☺
      </button>
      <button type="button" class="icon-button" aria-label="Quote and reply" title="Quote and reply (>)" onClick={() => void quoteReply(session, composer, message)}>
        ❝
      </button>
      <button type="button" class="icon-button" aria-label={starred ? 'Unstar' : 'Star'} aria-pressed={starred} title={starred ? 'Unstar (Ctrl+S)' : 'Star (Ctrl+S)'} onClick={() => void toggleStar(session, message)}>
        {starred ? '★' : '☆'}
      </button>
      {canEditContent(session, message) && (
        <button type="button" class="icon-button" aria-label="Edit" title="Edit (e)" onClick={() => (editing.value = message.id)}>
          ✎
        </button>
      )}
      <button type="button" class="icon-button" aria-label="More actions" aria-haspopup="menu" aria-expanded={menuOpen.value} onClick={() => (menuOpen.value = !menuOpen.value)}>
        ⋯
      </button>
      {menuOpen.value && (
        <div ref={menu} class={`menu ${opensUp.value ? 'opens-up' : ''}`} style={maxHeight.value === undefined ? undefined : { maxHeight: `${maxHeight.value}px`, overflowY: 'auto' }} role="menu" onClick={closeAfterChoice} onKeyDown={(event) => {
            // `i` again closes the menu it opened, the focus back on its button.
            if (pressName(event) === 'I') {
              event.preventDefault();
              close();
              holder.current?.querySelector<HTMLElement>('[aria-haspopup]')?.focus();
              return;
            }
            moveAmongChoices(event, [...event.currentTarget.querySelectorAll<HTMLElement>('[role="menuitem"]')]);
          }}>
          <button type="button" role="menuitem" onClick={() => void copyLink(session, message)}>
            Copy link to message
          </button>
          <button type="button" role="menuitem" onClick={() => void forwardMessage(session, composer, message)}>
            Forward message
          </button>
          <button type="button" role="menuitem" onClick={() => void markUnreadFromHere(session, route.value.narrow, message)}>
            Mark as unread from here
          </button>
          <button type="button" role="menuitem" onClick={() => void toggleCollapsed(session, message)}>
            {message.flags.includes('collapsed') ? 'Expand message' : 'Collapse message'}
          </button>
          {!canEditContent(session, message) && (
            <button type="button" role="menuitem" onClick={() => (messageDialog.value = { kind: 'source', message })}>
              View message source
            </button>
          )}
          {realm.realmFlags.value.allowEditHistory && (
            <button type="button" role="menuitem" onClick={() => (messageDialog.value = { kind: 'history', message })}>
              View edit history
            </button>
          )}
          <button type="button" role="menuitem" onClick={() => (messageDialog.value = { kind: 'remind', message })}>
            Remind me about this
          </button>
          {realm.realmFlags.value.readReceipts && (
            <button type="button" role="menuitem" onClick={() => (messageDialog.value = { kind: 'receipts', message })}>
              View read receipts
            </button>
          )}
          {mayMove && (
            <button type="button" role="menuitem" onClick={() => (messageDialog.value = { kind: 'move', message })}>
              Move message
            </button>
          )}
          {realm.isMuted(message.sender_id) && (
            <button type="button" role="menuitem" onClick={() => setRevealed(message.id, false)}>
              Hide muted message again
            </button>
          )}
          {mayDelete && (
            <button type="button" role="menuitem" class="danger" onClick={() => (messageDialog.value = { kind: 'delete', message })}>
              Delete message
            </button>
          )}
        </div>
      )}
    </div>
  );
}
