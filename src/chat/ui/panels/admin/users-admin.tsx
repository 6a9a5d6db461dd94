import { type Signal, useSignal } from '@preact/signals';
import type { User } from '../../../api/wire-types.ts';
import { useChat } from '../../chat-context.ts';
import { attempt, notify } from '../../notices.ts';
import { DeactivateUser } from './deactivate-user.tsx';
import { ROLES, roleName, rolesGivenBy } from '../../roles.ts';

interface Props {
  /** Bumped when the mail changes (a deactivation notice). */
  mailChanged: Signal<number>;
}

/** The realm's people (kept current by events): role, deactivation and reactivation. */
export function UsersAdmin({ mailChanged }: Props) {
  const { session } = useChat();
  const filter = useSignal('');
  const deactivating = useSignal<User | null>(null);
  const wanted = filter.value.trim().toLowerCase();
  const people = [...session.realm.users.value.values()]
    .filter((user) => !user.is_bot && (user.full_name.toLowerCase().includes(wanted) || emailOf(user).toLowerCase().includes(wanted)))
    .sort((a, b) => Number(b.is_active) - Number(a.is_active) || a.full_name.localeCompare(b.full_name));
  return (
    <section aria-labelledby="users-admin">
      <h3 id="users-admin">Users</h3>
      <label class="stacked">
        Find a user
        <input type="search" value={filter.value} onInput={(event) => (filter.value = event.currentTarget.value)} />
      </label>
      <ul class="admin-list" aria-label="Users">
        {people.map((user) => (
          <UserRow key={user.user_id} user={user} onDeactivate={() => (deactivating.value = user)} />
        ))}
      </ul>
      {people.length === 0 && <p class="hint">Nobody matches “{filter.value}”.</p>}
      {deactivating.value && (
        <DeactivateUser user={deactivating.value} onClose={() => (deactivating.value = null)} onMailSent={() => mailChanged.value++} />
      )}
    </section>
  );
}

/** The address administrators see: the real one when the server shares it. */
const emailOf = (user: User): string => user.delivery_email ?? user.email;

function UserRow({ user, onDeactivate }: { user: User; onDeactivate(): void }) {
  const { session } = useChat();
  const isOwner = session.realm.permissions.value.isOwner;
  // Only owners act on owners; the server would refuse the rest.
  const locked = user.role === 100 && !isOwner;
  const roles = locked ? ROLES.filter((role) => role.value === 100) : rolesGivenBy(isOwner);
  const name = user.full_name;
  return (
    <li class={`admin-row ${user.is_active ? '' : 'deactivated'}`}>
      <div class="admin-row-text">
        <span class="admin-item-title">
          {name}
          {user.user_id === session.me && ' (you)'}
        </span>
        <span class="hint">
          {emailOf(user)}
          {!user.is_active && ' · deactivated'}
        </span>
      </div>
      <div class="admin-row-actions">
        <select
          aria-label={`Role of ${name}`}
          value={String(user.role)}
          disabled={locked}
          onChange={(event) => {
            const select = event.currentTarget;
            const role = Number(select.value);
            void attempt(`Could not change ${name}’s role`, () => session.api.patch(`/users/${user.user_id}`, { role })).then((done) => {
              if (done) notify(`${name}’s role is now ${roleName(role)}.`);
              // Refused: show the role they still have (no event will redraw the select).
              else select.value = String(user.role);
            });
          }}
        >
          {roles.map((role) => (
            <option key={role.value} value={String(role.value)}>
              {role.label}
            </option>
          ))}
        </select>
        {user.is_active ? (
          <button type="button" class="danger small" aria-label={`Deactivate ${name}`} disabled={locked} onClick={onDeactivate}>
            Deactivate
          </button>
        ) : (
          <button
            type="button"
            class="small"
            aria-label={`Reactivate ${name}`}
            onClick={() =>
              void attempt(`Could not reactivate ${name}`, () => session.api.post(`/users/${user.user_id}/reactivate`)).then(
                (done) => done && notify(`${name} is active again.`),
              )
            }
          >
            Reactivate
          </button>
        )}
      </div>
    </li>
  );
}
