import { useSignal } from '@preact/signals';
import type { User } from '../../../api/wire-types.ts';
import { useChat } from '../../chat-context.ts';
import { Dialog } from '../../dialog.tsx';
import { attempt, notify } from '../../notices.ts';

interface Props {
  user: User;
  onClose(): void;
  /** The server recorded a notification mail. */
  onMailSent(): void;
}

/** Asks before deactivating someone, and whether to mail them a notice (spec 4.18). */
export function DeactivateUser({ user, onClose, onMailSent }: Props) {
  const { session } = useChat();
  const mailThem = useSignal(false);
  const comment = useSignal('');
  return (
    <Dialog title={`Deactivate ${user.full_name}?`} onClose={onClose}>
      <form
        class="stacked-form"
        onSubmit={(event) => {
          event.preventDefault();
          const mailed = mailThem.value;
          void attempt(`Could not deactivate ${user.full_name}`, () =>
            session.api.delete(`/users/${user.user_id}`, { deactivation_notification_comment: mailed ? comment.value : undefined }),
          ).then((done) => {
            if (!done) return;
            notify(`${user.full_name} is deactivated.`);
            if (mailed) onMailSent();
            onClose();
          });
        }}
      >
        <p>
          {user.full_name} is logged out at once and can no longer log in; bots they own are deactivated too. Their messages stay, and they can be
          reactivated later.
        </p>
        <label class="checkbox">
          <input type="checkbox" checked={mailThem.value} onChange={(event) => (mailThem.value = event.currentTarget.checked)} />
          Send them a notification email
        </label>
        {mailThem.value && (
          <label>
            Comment in the email (optional)
            <textarea rows={3} value={comment.value} onInput={(event) => (comment.value = event.currentTarget.value)} />
          </label>
        )}
        <div class="form-buttons">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" class="primary danger">
            Deactivate
          </button>
        </div>
      </form>
    </Dialog>
  );
}
