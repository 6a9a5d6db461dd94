import { useChat } from '../chat-context.ts';
import { attempt } from '../notices.ts';
import { RemovableRow } from '../removable-row.tsx';

/** Upstream's Muted users settings: whom I muted, each with Unmute (kept by muted_users events). */
export function MutedUsers() {
  const { session } = useChat();
  const realm = session.realm;
  const muted = [...realm.mutedUsers.value].map((id) => ({ id, name: realm.userName(id) })).sort((a, b) => a.name.localeCompare(b.name));
  return (
    <section aria-labelledby="muted-users">
      <h3 id="muted-users">Muted users</h3>
      {muted.length === 0 ? (
        <p class="hint">You have not muted anyone. A person's card (click their name on a message) offers Mute user.</p>
      ) : (
        <ul class="admin-list" aria-label="Muted users">
          {muted.map(({ id, name }) => (
            <RemovableRow key={id} action="Unmute" label={`Unmute ${name}`} onRemove={() => void attempt('Could not unmute', () => session.api.delete(`/users/me/muted_users/${id}`))}>
              {name}
            </RemovableRow>
          ))}
        </ul>
      )}
    </section>
  );
}
