import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { useChat } from '../chat-context.ts';
import { Dialog } from '../dialog.tsx';
import { attempt, notify } from '../notices.ts';
import { AddPersonForm } from './admin/add-person-form.tsx';
import { ConfirmDialog } from '../confirm-dialog.tsx';
import { RemovableRow } from '../removable-row.tsx';

/**
 * Upstream's channel settings for those who administer it: name and description, who is
 * subscribed (add, remove), and archiving. Each change is the server's to accept; what is
 * shown comes back through its events (name, description) or is fetched again (subscribers).
 */
export function ChannelSettings({ channelId, onClose }: { channelId: number; onClose(): void }) {
  const { session } = useChat();
  const realm = session.realm;
  const channel = realm.channels.value.get(channelId);
  const name = useSignal(channel?.name ?? '');
  const description = useSignal(channel?.description ?? '');
  const subscribers = useSignal<number[] | null>(null);
  const archiving = useSignal(false);
  const loadSubscribers = (): void =>
    void session.api.get<{ subscribers: number[] }>(`/streams/${channelId}/members`).then(
      (answer) => (subscribers.value = answer.subscribers),
      () => (subscribers.value = []),
    );
  useEffect(loadSubscribers, [channelId]);
  if (!channel) return null;

  const subscribed = new Set(subscribers.value ?? []);
  const people = [...realm.users.value.values()].filter((user) => user.is_active).sort((a, b) => a.full_name.localeCompare(b.full_name));
  const change = async (what: string, call: () => Promise<unknown>): Promise<boolean> => {
    const done = await attempt(`Could not ${what}`, call);
    loadSubscribers();
    return done;
  };
  return (
    <Dialog title={`#${channel.name} settings`} onClose={onClose} wide>
      <form
        class="stacked-form"
        onSubmit={(event) => {
          event.preventDefault();
          const params: Record<string, string> = {};
          if (name.value.trim() !== channel.name) params.new_name = name.value.trim();
          if (description.value !== channel.description) params.description = description.value;
          if (Object.keys(params).length === 0) return;
          void attempt('Could not change the channel', () => session.api.patch(`/streams/${channelId}`, params)).then((done) => done && notify('Channel saved.'));
        }}
      >
        <label>
          Channel name
          <input value={name.value} maxLength={60} onInput={(event) => (name.value = event.currentTarget.value)} />
        </label>
        <label>
          Description
          <textarea rows={3} value={description.value} onInput={(event) => (description.value = event.currentTarget.value)} />
        </label>
        <button type="submit">Save changes</button>
      </form>

      <section aria-labelledby="channel-subscribers">
        <h3 id="channel-subscribers">Subscribers{subscribers.value ? ` (${subscribers.value.length})` : ''}</h3>
        {!subscribers.value && <p role="status">Loading…</p>}
        <ul class="admin-list" aria-label="Subscribers">
          {people
            .filter((user) => subscribed.has(user.user_id))
            .map((user) => (
              <RemovableRow
                key={user.user_id}
                action="Unsubscribe"
                label={`Unsubscribe ${user.full_name}`}
                onRemove={() =>
                  void change('unsubscribe them', () => session.api.delete('/users/me/subscriptions', { subscriptions: [channel.name], principals: [user.user_id] }))
                }
              >
                {user.full_name}
              </RemovableRow>
            ))}
        </ul>
        <AddPersonForm
          label="Add a subscriber"
          candidates={people.filter((user) => !subscribed.has(user.user_id))}
          onAdd={(userId) =>
            change('subscribe them', () => session.api.post('/users/me/subscriptions', { subscriptions: [{ name: channel.name }], principals: [userId] }))
          }
        />
      </section>

      <section aria-labelledby="channel-archive">
        <h3 id="channel-archive">Archive</h3>
        <p class="hint">An archived channel keeps its messages but takes no new ones, and leaves everyone's sidebar.</p>
        <button type="button" class="danger" onClick={() => (archiving.value = true)}>
          Archive channel
        </button>
      </section>
      {archiving.value && (
        <ConfirmDialog
          title={`Archive #${channel.name}?`}
          action="Archive"
          onClose={() => (archiving.value = false)}
          onConfirm={() => void attempt('Could not archive the channel', () => session.api.delete(`/streams/${channelId}`)).then((done) => done && onClose())}
        >
          <p>Its messages stay readable; no one can send to it any more.</p>
        </ConfirmDialog>
      )}
    </Dialog>
  );
}
