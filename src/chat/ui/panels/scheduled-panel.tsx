import { useChat } from '../chat-context.ts';
import { messageHtml } from '../message-html.ts';
import { attempt } from '../notices.ts';
import { timeFormatter } from '../time-format.ts';

/** My scheduled messages, then my reminders. */
export function ScheduledPanel() {
  return (
    <>
      <ScheduledMessages />
      <Reminders />
    </>
  );
}

/** Reminders due (upstream's "Remind me about this"): when, about which message; cancel one. */
function Reminders() {
  const { session } = useChat();
  const realm = session.realm;
  const settings = realm.settings.value;
  const format = timeFormatter(settings.timezone, settings.twenty_four_hour_time);
  const reminders = [...realm.reminders.value].sort((a, b) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp);
  return (
    <section aria-labelledby="reminders-heading">
      <h3 id="reminders-heading">Reminders</h3>
      {reminders.length === 0 && <p class="hint">No reminders.</p>}
      <ul class="scheduled-list" aria-label="Reminders">
        {reminders.map((reminder) => (
          <li key={reminder.reminder_id} class={reminder.failed ? 'failed' : ''}>
            <p class="scheduled-meta">
              <time>{format.full(reminder.scheduled_delivery_timestamp)}</time>
              {reminder.failed && ' (failed)'}
            </p>
            <div class="rendered" dangerouslySetInnerHTML={{ __html: messageHtml(reminder.rendered_content, session.api.server) }} />
            <div class="form-buttons">
              <button
                type="button"
                class="danger"
                onClick={() => void attempt('Could not cancel the reminder', () => session.api.delete(`/reminders/${reminder.reminder_id}`))}
              >
                Cancel reminder
              </button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** My scheduled messages: where and when each goes; delete one, or take it back into the compose box to edit. */
function ScheduledMessages() {
  const { session, composer } = useChat();
  const realm = session.realm;
  const settings = realm.settings.value;
  const format = timeFormatter(settings.timezone, settings.twenty_four_hour_time);
  const scheduled = [...realm.scheduledMessages.value].sort((a, b) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp);
  if (scheduled.length === 0) return <p class="hint">No scheduled messages.</p>;
  return (
    <ul class="scheduled-list" aria-label="Scheduled messages">
      {scheduled.map((message) => {
        const where = realm.conversationName(
          message.type === 'stream' ? { channelId: message.to as number, topic: message.topic ?? '' } : { userIds: message.to as number[] },
        );
        return (
          <li key={message.scheduled_message_id} class={message.failed ? 'failed' : ''}>
            <p class="scheduled-meta">
              {where} — <time>{format.full(message.scheduled_delivery_timestamp)}</time>
              {message.failed && ' (failed)'}
            </p>
            <div class="rendered" dangerouslySetInnerHTML={{ __html: messageHtml(message.rendered_content, session.api.server) }} />
            <div class="form-buttons">
              <button
                type="button"
                onClick={() => {
                  composer.editScheduled(message);
                }}
              >
                Edit
              </button>
              <button
                type="button"
                class="danger"
                onClick={() => void attempt('Could not delete the scheduled message', () => session.api.delete(`/scheduled_messages/${message.scheduled_message_id}`))}
              >
                Delete
              </button>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
