import { type Signal, useSignal } from '@preact/signals';
import type { Message } from '../../api/wire-types.ts';
import type { ChatSession } from '../../state/session.ts';
import { newOptionData, newTaskData, type Poll, questionData, strikeData, titleData, type TodoList, voteData, type Widget } from '../../state/widgets.ts';
import { useChat } from '../chat-context.ts';
import { attempt, notify } from '../notices.ts';

/** Longest option, task or title the widget's fields take: a submessage's whole content is bounded by the server. */
const MAX_ITEM_LENGTH = 500;

function sendChange(session: ChatSession, message: Message, what: string, data: Record<string, unknown>): Promise<boolean> {
  return attempt(what, () => session.api.post('/submessage', { message_id: message.id, msg_type: 'widget', content: JSON.stringify(data) }));
}

/** Upstream's message widgets: a poll to vote in, or a to-do list to tick off, shown instead of the message's `/poll` or `/todo` text. */
export function MessageWidget({ message, widget }: { message: Message; widget: Widget }) {
  return widget.kind === 'poll' ? <PollWidget message={message} poll={widget} /> : <TodoWidget message={message} list={widget} />;
}

function PollWidget({ message, poll }: { message: Message; poll: Poll }) {
  const { session } = useChat();
  const users = session.realm.users.value;
  const option = useSignal('');
  const names = (ids: number[]) => ids.map((id) => users.get(id)?.full_name ?? 'Unknown user').join(', ');
  function addOption(): void {
    const text = option.value.trim();
    if (!text) return;
    if (poll.options.some((known) => known.text === text)) return notify(`“${text}” is already an option.`, 'error');
    option.value = '';
    void sendChange(session, message, 'Could not add the option', newOptionData(poll, text));
  }
  return (
    <section class="message-widget" aria-label="Poll">
      <WidgetHeading
        message={message}
        text={poll.question}
        placeholder="Poll without a question"
        editLabel="Edit question"
        fieldLabel="Question"
        onSave={(question) => sendChange(session, message, 'Could not change the question', questionData(question))}
      />
      <ul class="widget-items">
        {poll.options.map((entry) => {
          const voted = entry.voterIds.includes(session.me);
          const count = entry.voterIds.length;
          return (
            <li key={entry.key} class="poll-option">
              <button
                type="button"
                class={`poll-vote ${voted ? 'voted' : ''}`}
                aria-pressed={voted}
                aria-label={`${entry.text}: ${count} ${count === 1 ? 'vote' : 'votes'}${voted ? ', yours among them' : ''}`}
                onClick={() => void sendChange(session, message, 'Could not vote', voteData(poll, entry.key, session.me))}
              >
                {count}
              </button>
              <span class="widget-item-text">{entry.text}</span>
              {count > 0 && <span class="poll-voters">({names(entry.voterIds)})</span>}
            </li>
          );
        })}
      </ul>
      <AddItem value={option} label="New option" button="Add option" onAdd={addOption} />
    </section>
  );
}

function TodoWidget({ message, list }: { message: Message; list: TodoList }) {
  const { session } = useChat();
  const task = useSignal('');
  const desc = useSignal('');
  function addTask(): void {
    const name = task.value.trim();
    if (!name) return;
    if (list.tasks.some((known) => known.task === name)) return notify(`“${name}” is already a task.`, 'error');
    const description = desc.value.trim();
    task.value = '';
    desc.value = '';
    void sendChange(session, message, 'Could not add the task', newTaskData(list, name, description));
  }
  return (
    <section class="message-widget" aria-label="To-do list">
      <WidgetHeading
        message={message}
        text={list.title}
        placeholder="Task list"
        editLabel="Edit title"
        fieldLabel="Title"
        onSave={(title) => sendChange(session, message, 'Could not change the title', titleData(title))}
      />
      <ul class="widget-items">
        {list.tasks.map((entry) => (
          <li key={entry.key} class={`todo-task ${entry.completed ? 'done' : ''}`}>
            <label>
              <input type="checkbox" checked={entry.completed} onChange={() => void sendChange(session, message, 'Could not change the task', strikeData(entry.key))} />
              <span class="widget-item-text">
                <strong>{entry.task}</strong>
                {entry.desc && `: ${entry.desc}`}
              </span>
            </label>
          </li>
        ))}
      </ul>
      <AddItem value={task} label="New task" button="Add task" onAdd={addTask} extra={{ value: desc, label: 'Description' }} />
    </section>
  );
}

interface HeadingProps {
  message: Message;
  text: string;
  placeholder: string;
  editLabel: string;
  fieldLabel: string;
  onSave(text: string): Promise<boolean>;
}

/** The question or title; its author may change it (upstream allows no one else). */
function WidgetHeading({ message, text, placeholder, editLabel, fieldLabel, onSave }: HeadingProps) {
  const { session } = useChat();
  const draft = useSignal<string | null>(null);
  if (draft.value === null) {
    return (
      <div class="widget-heading">
        <h3 class={text ? '' : 'placeholder'}>{text || placeholder}</h3>
        {message.sender_id === session.me && (
          <button type="button" class="widget-edit" onClick={() => (draft.value = text)}>
            {editLabel}
          </button>
        )}
      </div>
    );
  }
  return (
    <form
      class="widget-heading"
      onSubmit={(event) => {
        event.preventDefault();
        const next = draft.value?.trim() ?? '';
        draft.value = null;
        if (next && next !== text) void onSave(next);
      }}
    >
      <input
        type="text"
        aria-label={fieldLabel}
        value={draft.value}
        maxLength={MAX_ITEM_LENGTH}
        ref={(field) => field?.focus()}
        onInput={(event) => (draft.value = event.currentTarget.value)}
        onKeyDown={(event) => event.key === 'Escape' && (draft.value = null)}
      />
      <button type="submit">Save</button>
      <button type="button" onClick={() => (draft.value = null)}>
        Cancel
      </button>
    </form>
  );
}

interface AddItemProps {
  value: Signal<string>;
  label: string;
  button: string;
  onAdd(): void;
  extra?: { value: Signal<string>; label: string };
}

function AddItem({ value, label, button, onAdd, extra }: AddItemProps) {
  const field = (signal: Signal<string>, name: string) => (
    <input type="text" aria-label={name} placeholder={name} value={signal.value} maxLength={MAX_ITEM_LENGTH} onInput={(event) => (signal.value = event.currentTarget.value)} />
  );
  return (
    <form
      class="widget-add"
      onSubmit={(event) => {
        event.preventDefault();
        onAdd();
      }}
    >
      {field(value, label)}
      {extra && field(extra.value, extra.label)}
      <button type="submit" disabled={!value.value.trim()}>
        {button}
      </button>
    </form>
  );
}
