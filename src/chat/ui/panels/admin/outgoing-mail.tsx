import type { Signal } from '@preact/signals';
import { useChat } from '../../chat-context.ts';
import { AcceptInvitation } from './accept-invitation.tsx';
import { fetchInvites } from './invitations.tsx';
import { FetchState, useFetched } from './use-fetched.tsx';
import { useWhen } from './when.ts';

/** GET /sandbox/outgoing_mail: what the server would have mailed (README, "Sandbox routes"). */
interface Mail {
  id: number;
  to: string;
  subject: string;
  body: string;
  sent_at: number;
  kind: string;
}

/** The invitation an invitation mail's accept address names, with the key that accepts it. */
function invitationOf(mail: Mail): { inviteId: number; acceptPath: string } | null {
  if (mail.kind !== 'invitation') return null;
  const match = /\/api\/v1(\/sandbox\/invites\/(\d+)\/accept\?key=[a-z0-9]+)/.exec(mail.body);
  return match ? { inviteId: Number(match[2]), acceptPath: match[1] } : null;
}

interface Props {
  /** Bumped when invitations or the mail change; bump it after a change made here. */
  changed: Signal<number>;
}

/**
 * No mail leaves this server: it is recorded, and shown here newest first. An invitation still
 * open can be accepted right here, standing in for the invitee's mailbox and sign-up page.
 */
export function OutgoingMail({ changed }: Props) {
  const { session } = useChat();
  const mail = useFetched(() => session.api.get<{ outgoing_mail: Mail[] }>('/sandbox/outgoing_mail').then((answer) => answer.outgoing_mail), [changed.value]);
  const invites = useFetched(() => fetchInvites(session), [changed.value]);
  const when = useWhen();
    const newestFirst = [...(mail.value ?? [])].reverse();
  return (
    <section aria-labelledby="outgoing-mail">
      <div class="admin-heading">
        <h3 id="outgoing-mail">Outgoing mail</h3>
        <button type="button" class="small" onClick={() => changed.value++}>
          Refresh
        </button>
      </div>
      <p class="hint">Mail the server would have sent (invitations, deactivation notices), recorded instead of delivered.</p>
      <FetchState what="the outgoing mail" fetched={mail} />
      {mail.value?.length === 0 && <p class="hint">No mail yet.</p>}
      {newestFirst.length > 0 && (
        <ul class="admin-list admin-mail" aria-label="Outgoing mail">
          {newestFirst.map((item) => {
            const invitation = invitationOf(item);
            return (
              <li key={item.id} aria-label={`${item.subject}, to ${item.to}`}>
                <p class="admin-item-title">{item.subject}</p>
                <p class="hint">
                  To {item.to} · {when(item.sent_at)}
                </p>
                <pre class="admin-mail-body">{item.body}</pre>
                {invitation !== null && (
                  <AcceptInvitation
                    acceptPath={invitation.acceptPath}
                    email={item.to}
                    open={invites.value ? invites.value.some((invite) => !invite.is_multiuse && invite.id === invitation.inviteId) : null}
                    onAccepted={() => changed.value++}
                  />
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
