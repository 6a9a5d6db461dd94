import { type Signal, useSignal } from '@preact/signals';
import { useId, useLayoutEffect, useRef } from 'preact/hooks';
import { useChat } from '../chat-context.ts';
import { notify } from '../notices.ts';
import { timeFormatter } from '../time-format.ts';
import { zoneOf } from '../time-format.ts';
import { fromInputValue, toInputValue, zoneName } from '../zoned-time.ts';

const HOUR_MS = 3600_000;

/** Shows or hides the fields for sending the message later; `fieldsId` names them. */
export function ScheduleToggle({ open, fieldsId }: { open: Signal<boolean>; fieldsId: string }) {
  return (
    <button type="button" class="compose-tool" aria-expanded={open.value} aria-controls={fieldsId} onClick={() => (open.value = !open.value)}>
      Schedule
    </button>
  );
}

/**
 * When to send the message (`Send at`, on the clock of the user's timezone setting as every time
 * in the app; an hour from now unless a scheduled message is being edited, which keeps its own
 * time) and `Schedule message`. A refusal shows the server's message in the compose box, as a
 * refused send does.
 */
export function ScheduleFields({ open, fieldsId }: { open: Signal<boolean>; fieldsId: string }) {
  const { session, composer } = useChat();
  const at = useSignal('');
  const input = useRef<HTMLInputElement>(null);
  const zoneHintId = useId();
  const settings = session.realm.settings.value;
  const zone = zoneOf(settings.timezone);

  // With the redraw, not after paint: the fields never show (or take keys) without their default.
  useLayoutEffect(() => {
    if (!open.value) return;
    const edited = session.realm.scheduledMessages.value.find((message) => message.scheduled_message_id === composer.scheduledId.value);
    at.value = toInputValue(edited ? edited.scheduled_delivery_timestamp * 1000 : Date.now() + HOUR_MS, zone);
    input.current?.focus();
  }, [open.value]);

  if (!open.value) return null;
  const chosen = fromInputValue(at.value, zone);

  function close(): void {
    open.value = false;
    document.querySelector<HTMLElement>(`[aria-controls="${fieldsId}"]`)?.focus();
  }

  async function schedule(): Promise<void> {
    if (Number.isNaN(chosen)) {
      composer.error.value = 'Choose a date and time to send at.';
      return;
    }
    const seconds = Math.floor(chosen / 1000);
    if (await composer.schedule(seconds)) {
      close();
      const format = timeFormatter(settings.timezone, settings.twenty_four_hour_time);
      notify(`Message scheduled for ${format.day(seconds)}, ${format.time(seconds)}.`);
    }
  }

  return (
    <div
      id={fieldsId}
      class="schedule-fields"
      role="group"
      aria-label="Schedule for later"
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        event.stopPropagation();
        close();
      }}
    >
      <label>
        Send at
        <input
          ref={input}
          type="datetime-local"
          aria-describedby={zoneHintId}
          value={at.value}
          onInput={(event) => (at.value = event.currentTarget.value)}
          onKeyDown={(event) => {
            // Enter schedules; left alone it would submit (send now) the message.
            if (event.key !== 'Enter') return;
            event.preventDefault();
            void schedule();
          }}
        />
      </label>
      <span class="hint" id={zoneHintId} title={zone ?? Intl.DateTimeFormat().resolvedOptions().timeZone}>
        {zoneName(Number.isNaN(chosen) ? Date.now() : chosen, zone)}
      </span>
      <button type="button" class="primary" disabled={composer.sending.value} onClick={() => void schedule()}>
        Schedule message
      </button>
    </div>
  );
}

/** Says that Schedule will change a scheduled message (taken back from the Scheduled messages panel); Cancel lets it be. */
export function ScheduledEditNote() {
  const { composer } = useChat();
  if (composer.scheduledId.value === null) return null;
  return (
    <p class="scheduled-edit-note">
      Editing a scheduled message
      <button
        type="button"
        onClick={() => {
          composer.scheduledId.value = null;
          composer.setContent('');
          composer.focusRequest.value += 1;
        }}
      >
        Cancel
      </button>
    </p>
  );
}
