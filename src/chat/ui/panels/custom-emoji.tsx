import { useSignal } from '@preact/signals';
import { useRef } from 'preact/hooks';
import { useChat } from '../chat-context.ts';
import { attempt, notify } from '../notices.ts';
import { RemovableRow } from '../removable-row.tsx';

/**
 * The organization's custom emoji (upstream's settings tab of that name): each with its image,
 * removable by whoever the server lets; a new one from a name and an image file. The list is
 * the server's, kept by `realm_emoji` events.
 */
export function CustomEmoji() {
  const { session } = useChat();
  const emoji = session.realm.activeRealmEmoji().sort((a, b) => a.name.localeCompare(b.name));
  const name = useSignal('');
  const file = useRef<HTMLInputElement>(null);
  const chosen = useSignal(false);
  const add = async (): Promise<void> => {
    const image = file.current?.files?.[0];
    const wanted = name.value.trim();
    if (!image || !wanted) return;
    if (!(await attempt('Could not add the emoji', () => session.api.upload(`/realm/emoji/${encodeURIComponent(wanted)}`, 'file', image)))) return;
    notify(`Added :${wanted}:.`);
    name.value = '';
    if (file.current) file.current.value = '';
    chosen.value = false;
  };
  return (
    <section aria-labelledby="custom-emoji">
      <h3 id="custom-emoji">Custom emoji</h3>
      {emoji.length === 0 && <p class="hint">No custom emoji yet.</p>}
      <ul class="admin-list" aria-label="Custom emoji">
        {emoji.map((entry) => (
          <RemovableRow
            key={entry.id}
            action="Remove"
            label={`Remove :${entry.name}:`}
            onRemove={() => void attempt('Could not remove the emoji', () => session.api.delete(`/realm/emoji/${encodeURIComponent(entry.name)}`))}
          >
            <img class="emoji-image" src={session.api.resolve(entry.source_url)} alt="" /> :{entry.name}:
          </RemovableRow>
        ))}
      </ul>
      <form
        class="stacked-form"
        onSubmit={(event) => {
          event.preventDefault();
          void add();
        }}
      >
        <label>
          Emoji name
          <input value={name.value} placeholder="e.g. party_parrot" onInput={(event) => (name.value = event.currentTarget.value)} />
        </label>
        <label>
          Image
          <input ref={file} type="file" accept="image/*" onChange={() => (chosen.value = (file.current?.files?.length ?? 0) > 0)} />
        </label>
        <button type="submit" disabled={!name.value.trim() || !chosen.value}>
          Add emoji
        </button>
      </form>
    </section>
  );
}
