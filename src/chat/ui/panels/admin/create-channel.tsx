import { useSignal } from '@preact/signals';
import { useChat } from '../../chat-context.ts';
import { attempt, notify } from '../../notices.ts';

/** A new channel, with me as its first subscriber (so it shows in my sidebar), optionally in a folder. */
export function CreateChannel() {
  const { session } = useChat();
  const folders = session.realm.folders.value.filter((folder) => !folder.is_archived);
  const name = useSignal('');
  const description = useSignal('');
  const isPrivate = useSignal(false);
  const folderId = useSignal('');
  return (
    <section aria-labelledby="create-channel">
      <h3 id="create-channel">Create a channel</h3>
      <form
        class="stacked-form"
        onSubmit={(event) => {
          event.preventDefault();
          const created = name.value.trim();
          void attempt('Could not create the channel', () =>
            session.api.post('/channels/create', {
              name: created,
              description: description.value,
              invite_only: isPrivate.value,
              subscribers: [session.me],
              folder_id: folderId.value === '' ? undefined : Number(folderId.value),
            }),
          ).then((done) => {
            if (!done) return;
            notify(`Created #${created}.`);
            name.value = '';
            description.value = '';
          });
        }}
      >
        <label>
          Channel name
          <input required value={name.value} onInput={(event) => (name.value = event.currentTarget.value)} />
        </label>
        <label>
          Description
          <input value={description.value} onInput={(event) => (description.value = event.currentTarget.value)} />
        </label>
        <label>
          Folder
          <select value={folderId.value} onChange={(event) => (folderId.value = event.currentTarget.value)}>
            <option value="">No folder</option>
            {folders.map((folder) => (
              <option key={folder.id} value={String(folder.id)}>
                {folder.name}
              </option>
            ))}
          </select>
        </label>
        <label class="checkbox">
          <input type="checkbox" checked={isPrivate.value} onChange={(event) => (isPrivate.value = event.currentTarget.checked)} />
          Private channel
        </label>
        <div class="form-buttons">
          <button type="submit" class="primary">
            Create channel
          </button>
        </div>
      </form>
    </section>
  );
}
