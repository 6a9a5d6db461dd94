import type { RefObject } from 'preact';
import { useRef } from 'preact/hooks';
import { findRecipient, joinRecipients, pillsFromTyped, recipientEntries } from '../../state/recipients.ts';
import { useChat } from '../chat-context.ts';
import { recipientSuggestions } from './suggestion-sources.ts';
import { useTypeahead } from './typeahead.tsx';

/**
 * A direct message's `To`, as upstream's pills: each recipient by name with an × to remove them,
 * then a text input for the next one, with suggestions. A comma, Enter or Tab on a suggestion,
 * or a click on one makes the pill; Backspace in the empty input removes the last. The box's
 * `to` stays the one source (drafts, replies and sending read it): the pills are its entries and
 * the text being typed is its last, counted when sending as upstream counts a pending entry.
 * `onEnter` takes an Enter no suggestion took, once the text is made pills (the box moves on to
 * the message).
 */
export function RecipientField({ field, onEnter }: { field: RefObject<HTMLInputElement>; onEnter(event: KeyboardEvent): void }) {
  const { session, composer } = useChat();
  const realm = session.realm;
  // What this field last wrote into `to`: while `to` still holds it, its text is being typed, not
  // pills. `to` set from elsewhere (a reply, a draft, `x`) is all pills.
  const written = useRef({ to: '', pills: [] as string[], typed: '' });
  const split = (to: string) => (written.current.to === to ? written.current : { to, pills: recipientEntries(to), typed: '' });
  const current = () => split(composer.to.peek());
  const { pills, typed } = split(composer.to.value);
  const find = (entry: string) => findRecipient(entry, realm.users.value.values());

  function write(next: { pills: string[]; typed: string }): void {
    const to = joinRecipients(next.pills, next.typed);
    written.current = { to, ...next };
    composer.to.value = to;
  }

  function type(text: string, whole = false): void {
    write(pillsFromTyped(current().pills, text, find, whole));
  }

  function remove(index: number): void {
    const now = current();
    write({ pills: now.pills.filter((_, i) => i !== index), typed: now.typed });
    field.current?.focus();
  }

  const typeahead = useTypeahead(
    field,
    // Upstream offers no one I muted, nor me.
    recipientSuggestions(
      () => [...realm.users.value.values()].filter((user) => user.is_active && user.user_id !== session.me && !realm.isMuted(user.user_id)),
      () => current().pills,
    ),
    (text) => type(text),
  );

  function onKeyDown(event: KeyboardEvent): void {
    if (typeahead.onKeyDown(event)) return;
    const input = event.currentTarget as HTMLInputElement;
    if (event.key === 'Backspace' && input.value === '' && pills.length > 0) {
      event.preventDefault();
      remove(pills.length - 1);
      return;
    }
    if (event.key !== 'Enter' || event.isComposing) return;
    type(input.value, true);
    onEnter(event);
  }

  return (
    <div class="compose-field to-field">
      {/* A click beside the pills is a click in the field, as upstream's. */}
      <div class="pill-box" onClick={(event) => event.target === event.currentTarget && field.current?.focus()}>
        {pills.length > 0 && (
          <ul class="pills" aria-label="Recipients">
            {pills.map((entry, index) => {
              const user = find(entry);
              const name = user?.full_name ?? entry;
              return (
                <li key={`${index}:${entry}`} class={user ? 'pill' : 'pill invalid'} title={user ? user.email : 'No one here has this name or email'}>
                  {user?.avatar_url && <img class="pill-avatar" src={session.api.resolve(user.avatar_url)} alt="" width={20} height={20} />}
                  <span class="pill-name">{name}</span>
                  <button type="button" class="pill-remove" aria-label={`Remove ${name}`} onClick={() => remove(index)}>
                    ×
                  </button>
                </li>
              );
            })}
          </ul>
        )}
        <input
          ref={field}
          aria-label="To"
          placeholder={pills.length > 0 ? '' : 'Add one or more people'}
          value={typed}
          // A finished entry still typed names no one (known ones became pills).
          aria-invalid={typed.includes(',')}
          {...typeahead.fieldProps}
          onInput={(event) => {
            type(event.currentTarget.value);
            typeahead.refresh();
          }}
          onKeyDown={onKeyDown}
        />
      </div>
      {typeahead.list}
    </div>
  );
}
