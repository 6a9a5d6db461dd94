import { useSignal } from '@preact/signals';
import type { GroupMembership } from '../../../state/group-permissions.ts';
import { useChat } from '../../chat-context.ts';
import { attempt } from '../../notices.ts';
import { AddPersonForm } from './add-person-form.tsx';

/**
 * The organization's own user groups (roles' groups aside): create one, add and remove its
 * members, deactivate it. What is shown is the server's, kept by `user_group` events.
 */
export function UserGroups() {
  const { session } = useChat();
  const groups = [...session.realm.groupPermissions.groups.value].filter(([, group]) => !group.system).sort(([, a], [, b]) => a.name.localeCompare(b.name));
  const name = useSignal('');
  const description = useSignal('');
  return (
    <section aria-labelledby="user-groups">
      <h3 id="user-groups">User groups</h3>
      {groups.length === 0 && <p class="hint">No user groups yet.</p>}
      <ul class="admin-list" aria-label="User groups">
        {groups.map(([id, group]) => (
          <GroupRow key={id} id={id} group={group} />
        ))}
      </ul>
      <form
        class="stacked-form"
        onSubmit={(event) => {
          event.preventDefault();
          void attempt('Could not create the group', () =>
            session.api.post('/user_groups/create', { name: name.value.trim(), description: description.value.trim(), members: [] }),
          ).then((done) => {
            if (!done) return;
            name.value = '';
            description.value = '';
          });
        }}
      >
        <label>
          Group name
          <input value={name.value} onInput={(event) => (name.value = event.currentTarget.value)} />
        </label>
        <label>
          Group description
          <input value={description.value} onInput={(event) => (description.value = event.currentTarget.value)} />
        </label>
        <button type="submit" disabled={!name.value.trim()}>
          Create group
        </button>
      </form>
    </section>
  );
}

function GroupRow({ id, group }: { id: number; group: GroupMembership }) {
  const { session } = useChat();
  const realm = session.realm;
  const people = [...realm.users.value.values()].filter((user) => user.is_active).sort((a, b) => a.full_name.localeCompare(b.full_name));
  const members = people.filter((user) => group.members.includes(user.user_id));
  const change = (what: string, params: { add?: number[]; delete?: number[] }) =>
    attempt(`Could not ${what}`, () => session.api.post(`/user_groups/${id}/members`, params));
  return (
    <li class="user-group">
      <div class="admin-row">
        <div class="admin-row-text">
          <strong>@{group.name}</strong>
          {group.description && <span class="hint"> — {group.description}</span>}
        </div>
        <button type="button" class="danger small" onClick={() => void attempt('Could not deactivate the group', () => session.api.post(`/user_groups/${id}/deactivate`))}>
          Deactivate
        </button>
      </div>
      <ul class="group-members" aria-label={`Members of ${group.name}`}>
        {members.map((user) => (
          <li key={user.user_id}>
            {user.full_name}
            <button type="button" class="icon-button" aria-label={`Remove ${user.full_name} from ${group.name}`} onClick={() => void change('remove the member', { delete: [user.user_id] })}>
              ✕
            </button>
          </li>
        ))}
      </ul>
      <AddPersonForm
        label={`Add to ${group.name}`}
        candidates={people.filter((user) => !group.members.includes(user.user_id))}
        onAdd={(userId) => change('add the member', { add: [userId] })}
      />
    </li>
  );
}
