import { useSignal } from '@preact/signals';
import { ApiClient } from '../../../api/api-client.ts';
import { useChat } from '../../chat-context.ts';
import { attempt } from '../../notices.ts';

interface Props {
  /** The mail's accept address under /api/v1, with the invitation's confirmation key. */
  acceptPath: string;
  email: string;
  /** Whether GET /invites still lists the invitation; null while that is not known yet. */
  open: boolean | null;
  onAccepted(): void;
}

/** What the invitee would do from the mail: choose a name and password (the sandbox accept route). */
export function AcceptInvitation({ acceptPath, email, open, onAccepted }: Props) {
  const { session } = useChat();
  const fullName = useSignal('');
  const password = useSignal('');
  const created = useSignal<string | null>(null);

  if (created.value) {
    return (
      <p class="admin-accepted" role="status">
        Account created for <strong>{created.value}</strong>. Log out and log in with that email and the password chosen here.
      </p>
    );
  }
  if (open === null) return null;
  if (!open) return <p class="hint">This invitation is no longer open: accepted, revoked or expired.</p>;

  return (
    <form
      class="stacked-form admin-accept"
      aria-label={`Accept the invitation for ${email}`}
      onSubmit={(event) => {
        event.preventDefault();
        // The invitee has no account yet: the call carries no credentials, as theirs would not.
        const anonymous = new ApiClient(session.api.server, null);
        void attempt('Could not accept the invitation', async () => {
          const account = await anonymous.post<{ email: string }>(acceptPath, {
            full_name: fullName.value.trim(),
            password: password.value,
          });
          created.value = account.email;
        }).then((done) => done && onAccepted());
      }}
    >
      <p class="hint">Accept it here, as {email} would from this mail:</p>
      <label>
        Full name
        <input required autocomplete="off" value={fullName.value} onInput={(event) => (fullName.value = event.currentTarget.value)} />
      </label>
      <label>
        Password
        <input required type="password" autocomplete="new-password" value={password.value} onInput={(event) => (password.value = event.currentTarget.value)} />
      </label>
      <div class="form-buttons">
        <button type="submit" class="primary">
          Accept invitation
        </button>
      </div>
    </form>
  );
}
