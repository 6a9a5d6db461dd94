import { useSignal } from '@preact/signals';
import { useChat } from '../../chat-context.ts';
import { attempt, notify } from '../../notices.ts';
import { messageHtml } from '../../message-html.ts';

/** The realm's channel folders (kept current by events) and a form for a new one. */
export function ChannelFolders() {
  const { session } = useChat();
  const folders = session.realm.folders.value.filter((folder) => !folder.is_archived);
  const name = useSignal('');
  const description = useSignal('');
  return (
    <section aria-labelledby="channel-folders">
      <h3 id="channel-folders">Channel folders</h3>
      {folders.length === 0 ? (
        <p class="hint">No folders yet: the sidebar lists channels without grouping them.</p>
      ) : (
        <ul class="admin-list" aria-label="Channel folders">
          {folders.map((folder) => (
            <li key={folder.id}>
              <span class="admin-item-title">{folder.name}</span>
              {folder.rendered_description && (
                <div class="hint rendered-description" dangerouslySetInnerHTML={{ __html: messageHtml(folder.rendered_description, session.api.server) }} />
              )}
            </li>
          ))}
        </ul>
      )}
      <form
        class="stacked-form"
        onSubmit={(event) => {
          event.preventDefault();
          const created = name.value.trim();
          void attempt('Could not create the folder', () =>
            // The server wants `description` present even when empty (spec 4.8).
            session.api.post('/channel_folders/create', { name: created, description: description.value.trim() }),
          ).then((done) => {
            if (!done) return;
            notify(`Created the folder “${created}”.`);
            name.value = '';
            description.value = '';
          });
        }}
      >
        <label>
          Folder name
          <input required value={name.value} onInput={(event) => (name.value = event.currentTarget.value)} />
        </label>
        <label>
          Folder description
          <input value={description.value} onInput={(event) => (description.value = event.currentTarget.value)} />
        </label>
        <div class="form-buttons">
          <button type="submit" class="primary">
            Create folder
          </button>
        </div>
      </form>
    </section>
  );
}
