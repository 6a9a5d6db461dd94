import { useEffect } from 'preact/hooks';
import { route, showView } from '../navigation.ts';
import type { ChatContextValue } from '../chat-context.ts';
import { editing, messageDialog, quoteReply, toggleStar } from '../messages/message-operations.ts';
import { searchFocus } from './search-box.tsx';

/** Elements where keys are text, not commands. */
function typingTarget(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return !!element && (element.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName));
}

function shownMessageIds(): number[] {
  return [...document.querySelectorAll<HTMLElement>('.message-rows [data-message-id]')].map((element) => Number(element.dataset.messageId));
}

/**
 * Upstream's keys where they make sense: `c` compose, `r` reply to the selected message,
 * `j`/`k` (and arrows) move the selection, `*` star, `e` edit, `+` react, `>` quote, `/` search,
 * `Shift+I` the Inbox, `t` Recent conversations, `Esc` closes what is open.
 */
export function useShortcuts(context: ChatContextValue): void {
  useEffect(() => {
    function onKey(event: KeyboardEvent): void {
      if (event.ctrlKey || event.metaKey || event.altKey || typingTarget(event.target)) return;
      const { session, composer, selectedId, panel, drawerOpen } = context;
      const selected = findSelected(context);
      const handled = (): void => event.preventDefault();
      switch (event.key) {
        case 'Escape':
          if (panel.value !== 'none') panel.value = 'none';
          else if (drawerOpen.value) drawerOpen.value = false;
          else selectedId.value = null;
          return;
        case '/':
          handled();
          searchFocus.request();
          return;
        case 'I':
          handled();
          showView('inbox');
          return;
        case 't':
          handled();
          showView('recent');
          return;
        case 'c':
          handled();
          composer.prefill(route.value.narrow);
          composer.focusRequest.value += 1;
          return;
        case 'j':
        case 'ArrowDown':
        case 'k':
        case 'ArrowUp': {
          const ids = shownMessageIds();
          if (ids.length === 0) return;
          handled();
          const index = selectedId.value === null ? -1 : ids.indexOf(selectedId.value);
          const down = event.key === 'j' || event.key === 'ArrowDown';
          const next = index < 0 ? (down ? ids[0] : ids[ids.length - 1]) : ids[Math.max(0, Math.min(ids.length - 1, index + (down ? 1 : -1)))];
          selectedId.value = next;
          document.querySelector(`[data-message-id="${next}"]`)?.scrollIntoView({ block: 'nearest' });
          return;
        }
      }
      if (!selected) return;
      switch (event.key) {
        case 'r':
        case 'Enter':
          handled();
          composer.replyTo(selected);
          return;
        case '>':
          handled();
          void quoteReply(session, composer, selected);
          return;
        case '*':
          handled();
          void toggleStar(session, selected);
          return;
        case 'e':
          if (selected.sender_id !== session.me) return;
          handled();
          editing.value = selected.id;
          return;
        case '+':
          handled();
          messageDialog.value = { kind: 'react', message: selected };
          return;
      }
    }
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [context.session]);
}

function findSelected(context: ChatContextValue) {
  const id = context.selectedId.value;
  if (id === null) return undefined;
  return context.session.list(route.value.narrow).messages.value.find((message) => message.id === id);
}
