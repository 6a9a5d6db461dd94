import { useSignal } from '@preact/signals';
import type { Message } from '../../api/wire-types.ts';
import { useChat } from '../chat-context.ts';
import { Dialog } from '../dialog.tsx';
import { attempt, notify } from '../notices.ts';
import { timeFormatter, zoneOf } from '../time-format.ts';
import { fromInputValue, toInputValue } from '../zoned-time.ts';

const MINUTE_MS = 60_000;

/** Upstream's quick choices, as offsets from now. */
const SOON: [string, number][] = [
  ['In 20 minutes', 20 * MINUTE_MS],
  ['In 1 hour', 60 * MINUTE_MS],
  ['In 3 hours', 180 * MINUTE_MS],
  ['Tomorrow', 24 * 60 * MINUTE_MS],
];

/**
 * Upstream's "Remind me about this": the notification bot sends me a DM linking the message at
 * the time chosen (a quick choice, or a date and time on my timezone's clock), with a note.
 */
export function RemindDialog({ message, onClose }: { message: Message; onClose(): void }) {
  const { session } = useChat();
  const settings = session.realm.settings.value;
  const zone = zoneOf(settings.timezone);
  const at = useSignal(toInputValue(Date.now() + 60 * MINUTE_MS, zone));
  const note = useSignal('');
  const remind = async (ms: number): Promise<void> => {
    const seconds = Math.floor(ms / 1000);
    const params: Record<string, string | number> = { message_id: message.id, scheduled_delivery_timestamp: seconds };
    if (note.value.trim()) params.note = note.value.trim();
    if (!(await attempt('Could not set the reminder', () => session.api.post('/reminders', params)))) return;
    const format = timeFormatter(settings.timezone, settings.twenty_four_hour_time);
    notify(`Reminder set for ${format.day(seconds)}, ${format.time(seconds)}.`);
    onClose();
  };
  const chosen = fromInputValue(at.value, zone);
  return (
    <Dialog title="Remind me about this" onClose={onClose}>
      <form
        class="stacked-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (!Number.isNaN(chosen)) void remind(chosen);
        }}
      >
        <label>
          Note (optional)
          <input value={note.value} maxLength={1000} onInput={(event) => (note.value = event.currentTarget.value)} />
        </label>
        <ul class="choice-list" aria-label="When">
          {SOON.map(([label, offset]) => (
            <li key={label}>
              <button type="button" onClick={() => void remind(Date.now() + offset)}>
                {label}
              </button>
            </li>
          ))}
        </ul>
        <label>
          At
          <input type="datetime-local" value={at.value} onInput={(event) => (at.value = event.currentTarget.value)} />
        </label>
        <div class="form-buttons">
          <button type="submit" class="primary" disabled={Number.isNaN(chosen)}>
            Remind me at this time
          </button>
        </div>
      </form>
    </Dialog>
  );
}
