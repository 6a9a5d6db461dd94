import { useSignal } from '@preact/signals';
import type { Message } from '../../api/wire-types.ts';
import { useRef } from 'preact/hooks';
import { TopicMenuItems } from '../messages/topic-menu-items.tsx';
import { useKeepInView } from '../keep-in-view.ts';
import { moveAmongChoices, useFirstChoiceWhenOpenedByKey, usePopupDismiss } from '../popup-dismiss.ts';

/**
 * The open topic's rarer actions behind one button, as upstream's topic menu: Copy link to topic,
 * Rename topic and Move topic (its newest loaded message moved with all the others), and Delete
 * topic for administrators. `newest` (none in a topic no one wrote in) names the whole topic to
 * `PATCH /messages/{id}` with change_all.
 */
export function TopicMenu({ channelId, topic, newest }: { channelId: number; topic: string; newest: Message | undefined }) {
  const open = useSignal(false);
  const button = useRef<HTMLButtonElement>(null);
  // A choice closes the menu, the focus back on its button (a dialog the choice opens gives it back there).
  const close = () => {
    button.current?.focus();
    open.value = false;
  };
  const holder = useRef<HTMLDivElement>(null);
  usePopupDismiss(open, holder, button);
  const menu = useRef<HTMLDivElement>(null);
  useKeepInView(open, menu);
  const noteOpener = useFirstChoiceWhenOpenedByKey(open, menu);
  return (
    <div class="topic-menu" ref={holder}>
      <button ref={button} type="button" class="small" aria-label="Topic actions" aria-haspopup="menu" aria-expanded={open.value}
        onClick={(event) => {
          noteOpener(event);
          open.value = !open.value;
        }}
      >
        ⋯
      </button>
      {open.value && (
        <div
          ref={menu}
          class="menu"
          role="menu"
          aria-label="Topic actions"
          onClick={close}
          onKeyDown={(event) => moveAmongChoices(event, [...event.currentTarget.querySelectorAll<HTMLElement>('[role^="menuitem"]')])}
        >
          <TopicMenuItems channelId={channelId} topic={topic} newest={newest && (() => Promise.resolve(newest))} />
        </div>
      )}
    </div>
  );
}
