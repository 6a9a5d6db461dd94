import { useSignal } from '@preact/signals';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { useChat } from '../chat-context.ts';
import { attempt } from '../notices.ts';
import { moveAmongChoices, usePopupDismiss } from '../popup-dismiss.ts';

/**
 * Upstream's send options beside Send (named without "Send": a button `Send` is what the runtime
 * contract promises, and a search by that name must find one): whether Enter or Ctrl+Enter sends, where one writes
 * (the personal setting `enter_sends`, kept by the server). The choice closes the menu and the
 * focus goes back to the message box.
 */
export function SendOptions({ onChosen }: { onChosen(): void }) {
  const { session } = useChat();
  const enterSends = session.realm.settings.value.enter_sends;
  const open = useSignal(false);
  const holder = useRef<HTMLDivElement>(null);
  usePopupDismiss(open, holder);
  useLayoutEffect(() => {
    if (open.value) holder.current?.querySelector<HTMLElement>('[aria-checked="true"]')?.focus();
  }, [open.value]);

  function choose(value: boolean): void {
    open.value = false;
    onChosen();
    if (value !== enterSends) void attempt('Could not save the setting', () => session.api.patch('/settings', { enter_sends: String(value) }));
  }

  const choices: [boolean, string][] = [
    [true, 'Enter sends'],
    [false, 'Ctrl+Enter sends'],
  ];
  return (
    <div
      class="compose-tool-holder"
      ref={holder}
      onKeyDown={(event) => moveAmongChoices(event, [...(holder.current?.querySelectorAll<HTMLElement>('[role="menuitemradio"]') ?? [])])}
    >
      <button type="button" class="compose-tool send-options" aria-label="Enter key options" title="Enter key options" aria-haspopup="menu" aria-expanded={open.value} onClick={() => (open.value = !open.value)}>
        ⋮
      </button>
      {open.value && (
        <div class="compose-popover send-options-menu" role="menu" aria-label="Enter key options">
          {choices.map(([value, label]) => (
            <button key={label} type="button" role="menuitemradio" aria-checked={value === enterSends} onClick={() => choose(value)}>
              {label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
