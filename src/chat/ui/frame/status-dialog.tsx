import { signal, useSignal } from '@preact/signals';
import { useChat } from '../chat-context.ts';
import { Dialog } from '../dialog.tsx';
import { emojiCharacter } from '../emoji.ts';
import { attempt } from '../notices.ts';

/** Upstream's suggested statuses, each with its emoji (names this server's emoji catalogue knows). */
const PRESETS: { emojiName: string; emojiCode: string; text: string }[] = [
  { emojiName: 'date', emojiCode: '1f4c5', text: 'In a meeting' },
  { emojiName: 'bus', emojiCode: '1f68c', text: 'Commuting' },
  { emojiName: 'face_with_thermometer', emojiCode: '1f912', text: 'Out sick' },
  { emojiName: 'palm_tree', emojiCode: '1f334', text: 'Vacationing' },
  { emojiName: 'house', emojiCode: '1f3e0', text: 'Working remotely' },
  { emojiName: 'office', emojiCode: '1f3e2', text: 'At the office' },
];

/** Whether the Set status dialog is open (the user menu, or `Shift+Y`). */
export const statusDialogOpen = signal(false);

/** The server's limit on a status text, in characters. */
const MAX_STATUS_CHARS = 60;

/** Sets my status (upstream's "Set status"): a text and an emoji, one of the suggestions or my own words; or clears it. */
export function StatusDialog({ onClose }: { onClose(): void }) {
  const { session } = useChat();
  const current = session.realm.userStatus.value.get(session.me);
  const text = useSignal(current?.text ?? '');
  const emojiName = useSignal(current?.emojiName ?? '');
  const save = async (status: { status_text: string; emoji_name: string }): Promise<void> => {
    if (await attempt('Could not set the status', () => session.api.post('/users/me/status', status))) onClose();
  };
  const preset = PRESETS.find((choice) => choice.emojiName === emojiName.value);
  return (
    <Dialog title="Set status" onClose={onClose}>
      <form
        class="stacked-form"
        onSubmit={(event) => {
          event.preventDefault();
          void save({ status_text: text.value.trim(), emoji_name: emojiName.value });
        }}
      >
        <label>
          Status
          <span class="status-input">
            {preset && <span aria-hidden="true">{emojiCharacter(preset.emojiCode)}</span>}
            <input
              // The dialog opens to the words, not to its Close button.
              autoFocus
              value={text.value}
              maxLength={MAX_STATUS_CHARS}
              placeholder="What are you up to?"
              onInput={(event) => {
                text.value = event.currentTarget.value;
                // Own words keep the emoji only while they are a suggestion's.
                if (!PRESETS.some((choice) => choice.text === text.value && choice.emojiName === emojiName.value)) emojiName.value = '';
              }}
            />
          </span>
        </label>
        <ul class="choice-list" aria-label="Suggested statuses">
          {PRESETS.map((choice) => (
            <li key={choice.emojiName}>
              <button
                type="button"
                onClick={() => {
                  text.value = choice.text;
                  emojiName.value = choice.emojiName;
                }}
              >
                <span aria-hidden="true">{emojiCharacter(choice.emojiCode)}</span> {choice.text}
              </button>
            </li>
          ))}
        </ul>
        <div class="form-buttons">
          <button type="submit" class="primary">
            Save
          </button>
          <button type="button" disabled={!current} onClick={() => void save({ status_text: '', emoji_name: '' })}>
            Clear status
          </button>
        </div>
      </form>
    </Dialog>
  );
}
