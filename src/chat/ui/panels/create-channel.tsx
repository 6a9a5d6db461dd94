import { effect, useSignal } from '@preact/signals';
import { useId } from 'preact/hooks';
import type { RealmState } from '../../state/realm-state.ts';
import { useChat } from '../chat-context.ts';
import { attempt, notify } from '../notices.ts';

/** Resolves once the realm's events have brought the channel (a view of it before then would name no channel). */
function channelArrived(realm: RealmState, id: number): Promise<void> {
  return new Promise((resolve) => {
    const stop = effect(() => {
      if (!realm.channels.value.has(id)) return;
      resolve();
      queueMicrotask(() => stop());
    });
  });
}

/**
 * A new channel, with me as its first subscriber (so it shows in my sidebar), optionally in a
 * folder; public or private as the realm lets me create them (`can_create_public_channel_group`,
 * `can_create_private_channel_group`). `onCreated` gets the new channel's id.
 */
export function CreateChannel({ onCreated, inDialog = false }: { onCreated?(id: number): void; inDialog?: boolean }) {
  const headingId = useId();
  const { session } = useChat();
  const realm = session.realm;
  const folders = realm.folders.value.filter((folder) => !folder.is_archived);
  const mayPublic = realm.may('can_create_public_channel_group');
  const mayPrivate = realm.may('can_create_private_channel_group');
  const name = useSignal('');
  const description = useSignal('');
  const privateChosen = useSignal(false);
  // Only one kind allowed: that kind, with no choice offered.
  const isPrivate = mayPublic && mayPrivate ? privateChosen.value : mayPrivate;
  const folderId = useSignal('');
  return (
    <section aria-labelledby={inDialog ? undefined : headingId}>
      {!inDialog && <h3 id={headingId}>Create a channel</h3>}
      <form
        class="stacked-form"
        onSubmit={(event) => {
          event.preventDefault();
          const created = name.value.trim();
          const result: { id?: number } = {};
          void attempt('Could not create the channel', async () => {
            result.id = (
              await session.api.post<{ id: number }>('/channels/create', {
                name: created,
                description: description.value,
                invite_only: isPrivate,
                subscribers: [session.me],
                folder_id: folderId.value === '' ? undefined : Number(folderId.value),
              })
            ).id;
          }).then((done) => {
            if (!done) return;
            notify(`Created #${created}.`);
            name.value = '';
            description.value = '';
            const { id } = result;
            if (id !== undefined && onCreated) void channelArrived(realm, id).then(() => onCreated(id));
          });
        }}
      >
        <label>
          Channel name
          {/* In its dialog the name is what is typed first; in a panel the focus stays where it is. */}
          <input required autoFocus={inDialog} value={name.value} onInput={(event) => (name.value = event.currentTarget.value)} />
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
        {mayPublic && mayPrivate ? (
          <label class="checkbox">
            <input type="checkbox" checked={privateChosen.value} onChange={(event) => (privateChosen.value = event.currentTarget.checked)} />
            Private channel
          </label>
        ) : (
          <p class="hint">{isPrivate ? 'The channel will be private: you may create private channels only.' : 'The channel will be public: you may create public channels only.'}</p>
        )}
        <div class="form-buttons">
          <button type="submit" class="primary">
            Create channel
          </button>
        </div>
      </form>
    </section>
  );
}
