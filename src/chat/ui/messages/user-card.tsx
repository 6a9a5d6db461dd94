import { useSignal } from '@preact/signals';
import { useChat } from '../chat-context.ts';
import { Dialog } from '../dialog.tsx';
import { attempt, notify } from '../notices.ts';
import { navigate } from '../navigation.ts';
import { roleName } from '../roles.ts';
import { slugNames } from '../slug-names.ts';
import { timeFormatter } from '../time-format.ts';
import { Avatar } from './avatar.tsx';
import { ProfileFieldValues } from './profile-field-values.tsx';
import { presenceLabel } from '../presence-dot.tsx';
import { StatusEmoji } from '../status-emoji.tsx';
import { mentionSyntax } from '../../state/mention-syntax.ts';
import { copyToClipboard, writeIn } from './message-operations.ts';

/**
 * A person's card, opened from a sender's name: who they are (role, email, local time, their
 * custom profile fields) and the ways on from there upstream's user card offers: a direct
 * message, the messages they sent, muting them.
 */
export function UserCard({ userId, onClose }: { userId: number; onClose(): void }) {
  const { session, composer } = useChat();
  const realm = session.realm;
  const user = realm.users.value.get(userId);
  if (!user) return null;
  const settings = realm.settings.value;
  const localTime = user.timezone ? timeFormatter(user.timezone, settings.twenty_four_hour_time).time(Date.now() / 1000) : null;
  const names = slugNames(session);
  const email = user.delivery_email ?? user.email;
  return (
    <Dialog title={user.full_name} onClose={onClose}>
      <div class="user-card">
        {user.avatar_url && <Avatar url={session.api.resolve(user.avatar_url)} />}
        <dl>
          <dt>Role</dt>
          <dd>{user.is_bot ? 'Bot' : roleName(user.role)}</dd>
          <dt>Email</dt>
          <dd>{email}</dd>
          {realm.userStatus.value.has(user.user_id) && (
            <>
              <dt>Status</dt>
              <dd>
                <StatusEmoji status={realm.userStatus.value.get(user.user_id)} withText />
              </dd>
            </>
          )}
          {!user.is_bot && user.is_active && (
            <>
              <dt>Presence</dt>
              <dd>{presenceLabel(session.presence.statusOf(user.user_id))}</dd>
            </>
          )}
          {localTime && (
            <>
              <dt>Local time</dt>
              <dd>{localTime}</dd>
            </>
          )}
          {!user.is_bot && <ProfileFieldValues userId={user.user_id} />}
        </dl>
      </div>
      <div class="form-buttons">
        {user.is_active && (
          <button
            type="button"
            class="primary"
            onClick={() => {
              onClose();
              writeIn(session, composer, { kind: 'dm', userIds: [user.user_id] }, { afterDialog: true });
            }}
          >
            Send direct message
          </button>
        )}
        <button
          type="button"
          onClick={() => {
            onClose();
            navigate({ kind: 'terms', terms: [{ operator: 'sender', operand: user.user_id }] }, names);
          }}
        >
          View messages sent
        </button>
        {/* Upstream's card offers the mention to paste elsewhere (a name shared by two people with its id). */}
        <button type="button" onClick={() => void copyToClipboard(mentionSyntax(user, realm.users.value.values()), 'Mention syntax')}>
          Copy mention syntax
        </button>
        {user.user_id !== session.me && !user.is_system_bot && <MuteControl userId={user.user_id} name={user.full_name} />}
      </div>
    </Dialog>
  );
}

/**
 * Mute user (asked first: the server marks every message of theirs read, which unmuting does not
 * undo, as upstream's dialog warns) or Unmute user.
 */
function MuteControl({ userId, name }: { userId: number; name: string }) {
  const { session } = useChat();
  const asking = useSignal(false);
  const path = `/users/me/muted_users/${userId}`;
  if (session.realm.isMuted(userId)) {
    return (
      <button type="button" onClick={() => void attempt('Could not unmute', () => session.api.delete(path)).then((done) => done && notify(`Unmuted ${name}.`))}>
        Unmute user
      </button>
    );
  }
  if (!asking.value) {
    return (
      <button type="button" onClick={() => (asking.value = true)}>
        Mute user
      </button>
    );
  }
  return (
    <div class="mute-confirm" role="group" aria-label={`Mute ${name}`}>
      <p>Their messages will be marked as read and hidden, and will never notify you. Unmuting does not mark them unread again.</p>
      <button type="button" class="danger" onClick={() => void attempt('Could not mute', () => session.api.post(path)).then((done) => done && notify(`Muted ${name}.`))}>
        Mute
      </button>
      <button type="button" onClick={() => (asking.value = false)}>
        Cancel
      </button>
    </div>
  );
}
