import { useSignal } from '@preact/signals';
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { User } from '../../api/wire-types.ts';
import type { PresenceStatus } from '../../state/presence.ts';
import { useChat } from '../chat-context.ts';
import { messageDialog, writeIn } from '../messages/message-operations.ts';
import { PresenceDot } from '../presence-dot.tsx';
import { StatusEmoji } from '../status-emoji.tsx';

const ORDER: Record<PresenceStatus, number> = { active: 0, idle: 1, offline: 2 };

/** `w` (upstream's Filter users): the panel's filter takes the focus when it opens next, or now if open. */
export const usersFilterFocus = {
  pending: false,
  request(): void {
    this.pending = true;
    this.focus();
  },
  focus: () => {},
};

/**
 * Upstream's buddy list: the realm's people (not bots, not deactivated accounts), me first, then
 * those active, idle and offline, each by name.
 */
export function UsersPanel() {
  const { session } = useChat();
  const realm = session.realm;
  const presence = session.presence;
  const filter = useSignal('');
  const filterField = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => {
    usersFilterFocus.focus = () => {
      if (!usersFilterFocus.pending) return;
      usersFilterFocus.pending = false;
      filterField.current?.focus();
    };
    usersFilterFocus.focus();
    return () => {
      usersFilterFocus.focus = () => {};
    };
  }, []);
  const words = filter.value.trim().toLowerCase();
  const people = [...realm.users.value.values()]
    .filter((user) => user.is_active && !user.is_bot && !realm.isMuted(user.user_id) && (words === '' || user.full_name.toLowerCase().includes(words)))
    .map((user) => ({ user, status: presence.statusOf(user.user_id) }))
    .sort(
      (a, b) =>
        Number(b.user.user_id === session.me) - Number(a.user.user_id === session.me) ||
        ORDER[a.status] - ORDER[b.status] ||
        a.user.full_name.localeCompare(b.user.full_name),
    );
  return (
    <section>
      <input ref={filterField} type="search" aria-label="Filter users" placeholder="Filter users" value={filter.value} onInput={(event) => (filter.value = event.currentTarget.value)} />
      <ul class="user-list" aria-label="Users">
        {people.map(({ user, status }) => (
          <UserRow key={user.user_id} user={user} status={status} me={user.user_id === session.me} />
        ))}
      </ul>
      {people.length === 0 && <p class="hint">No one matches “{filter.value.trim()}”.</p>}
    </section>
  );
}

/** As upstream's buddy list: the name opens our direct messages, ⋮ the person's card. */
function UserRow({ user, status, me }: { user: User; status: PresenceStatus; me: boolean }) {
  const { session, composer } = useChat();
  return (
    <li class="user-list-row">
      <button type="button" class="user-row" onClick={() => writeIn(session, composer, { kind: 'dm', userIds: [user.user_id] })}>
        <PresenceDot status={status} />
        <span class="label">{user.full_name}</span>
        {me && <span class="hint">(you)</span>}
        <StatusEmoji status={session.realm.userStatus.value.get(user.user_id)} withText />
      </button>
      {/* The glyph is CSS: the row's text stays the person's name. */}
      <button
        type="button"
        class="user-card-button"
        aria-haspopup="dialog"
        aria-label={`Card of ${user.full_name}`}
        title="View the card"
        onClick={() => (messageDialog.value = { kind: 'user', userId: user.user_id })}
      />
    </li>
  );
}
