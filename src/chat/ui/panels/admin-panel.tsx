import { useSignal } from '@preact/signals';
import { useChat } from '../chat-context.ts';
import { attempt, notify } from '../notices.ts';

/** Administration for owners and administrators: channels first. */
export function AdminPanel() {
  return (
    <div class="admin">
      <CreateChannel />
    </div>
  );
}

function CreateChannel() {
  const { session } = useChat();
  const name = useSignal('');
  const description = useSignal('');
  const isPrivate = useSignal(false);
  return (
    <section aria-labelledby="create-channel">
      <h3 id="create-channel">Create a channel</h3>
      <form
        class="stacked-form"
        onSubmit={(event) => {
          event.preventDefault();
          void attempt('Could not create the channel', () =>
            session.api.post('/channels/create', { name: name.value.trim(), description: description.value, invite_only: isPrivate.value, subscribers: [session.me] }),
          ).then((done) => {
            if (!done) return;
            notify(`Created #${name.value.trim()}.`);
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
        <label class="checkbox">
          <input type="checkbox" checked={isPrivate.value} onChange={(event) => (isPrivate.value = event.currentTarget.checked)} />
          Private channel
        </label>
        <button type="submit" class="primary">
          Create channel
        </button>
      </form>
    </section>
  );
}
