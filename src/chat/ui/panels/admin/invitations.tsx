import { type Signal, useSignal } from '@preact/signals';
import { ApiFailure } from '../../../api/api-client.ts';
import type { ChatSession } from '../../../state/session.ts';
import { useChat } from '../../chat-context.ts';
import { attempt, notify } from '../../notices.ts';
import { MEMBER, roleName, rolesGivenBy } from '../../roles.ts';
import { FetchState, useFetched } from './use-fetched.tsx';
import { useWhen } from './when.ts';
import { ChannelIcon } from '../../channel-icon.tsx';
import { RemovableRow } from '../../removable-row.tsx';

/** GET /invites: the open invitations this administrator controls, email invitations and reusable links. */
export interface Invite {
  /** Unique only together with `is_multiuse`: the two kinds are numbered apart. */
  id: number;
  /** Email invitations only. */
  email?: string;
  /** Reusable links only. */
  link_url?: string;
  is_multiuse: boolean;
  invited_by_user_id: number;
  /** Seconds since the epoch; null never expires. */
  expiry_date: number | null;
  invited_as: number;
}

export const fetchInvites = (session: ChatSession) =>
  session.api.get<{ invites: Invite[] }>('/invites').then((answer) => answer.invites);

const EXPIRIES = [
  { minutes: 60 * 24, label: '1 day' },
  { minutes: 60 * 24 * 10, label: '10 days' },
  { minutes: 60 * 24 * 30, label: '30 days' },
  { minutes: null, label: 'Never' },
];
const DEFAULT_EXPIRY = '1';

interface Props {
  /** Bumped when invitations or the mail change; bump it after a change made here. */
  changed: Signal<number>;
}

/**
 * Invite people by email (the invitation is recorded as outgoing mail) or with a reusable link,
 * and the invitations still open.
 */
export function Invitations({ changed }: Props) {
  return (
    <section aria-labelledby="invitations">
      <h3 id="invitations">Invite users</h3>
      <InviteForm changed={changed} />
      <PendingInvitations changed={changed} />
    </section>
  );
}

function InviteForm({ changed }: Props) {
  const { session } = useChat();
  const realm = session.realm;
  const channels = [...realm.channels.value.values()].filter((channel) => !channel.is_archived).sort((a, b) => a.name.localeCompare(b.name));
  const emails = useSignal('');
  const role = useSignal(MEMBER);
  const channelIds = useSignal<number[]>([]);
  const withDefaults = useSignal(true);
  const expiry = useSignal(DEFAULT_EXPIRY);
  const link = useSignal<string | null>(null);
  const toggle = (id: number, on: boolean) => (channelIds.value = on ? [...channelIds.value, id] : channelIds.value.filter((c) => c !== id));
  /** What an email invitation and a reusable link share: the form's choices but the addresses. */
  const choices = () => ({
    invite_as: role.value,
    stream_ids: channelIds.value,
    include_realm_default_subscriptions: withDefaults.value,
    invite_expires_in_minutes: EXPIRIES[Number(expiry.value)].minutes,
  });

  async function createLink(): Promise<void> {
    await attempt('Could not create the invite link', async () => {
      link.value = (await session.api.post<{ invite_link: string }>('/invites/multiuse', choices())).invite_link;
    });
    changed.value++;
  }

  async function invite(): Promise<void> {
    try {
      await session.api.post('/invites', { invitee_emails: emails.value, ...choices() });
      notify('Invitation sent: its mail is under “Outgoing mail”.');
      emails.value = '';
    } catch (error) {
      // INVITATION_FAILED names each refused address and why; the others may have been invited.
      const refused = error instanceof ApiFailure && Array.isArray(error.body.errors) ? (error.body.errors as [string, string][]) : [];
      const details = refused.map(([email, reason]) => ` ${email}: ${reason}`).join(';');
      notify(`Could not invite: ${error instanceof Error ? error.message : String(error)}${details}`, 'error');
    }
    changed.value++;
  }

  return (
    <form
      class="stacked-form"
      onSubmit={(event) => {
        event.preventDefault();
        void invite();
      }}
    >
      <label>
        Email addresses
        <textarea required rows={2} value={emails.value} onInput={(event) => (emails.value = event.currentTarget.value)} />
      </label>
      <p class="hint">Separate several addresses with commas or new lines.</p>
      <label>
        Invite as
        <select value={String(role.value)} onChange={(event) => (role.value = Number(event.currentTarget.value))}>
          {rolesGivenBy(realm.permissions.value.isOwner).map((r) => (
            <option key={r.value} value={String(r.value)}>
              {r.label}
            </option>
          ))}
        </select>
      </label>
      <fieldset class="admin-channel-choice">
        <legend>Channels to join</legend>
        {channels.map((channel) => (
          <label key={channel.stream_id} class="checkbox">
            <input type="checkbox" checked={channelIds.value.includes(channel.stream_id)} onChange={(event) => toggle(channel.stream_id, event.currentTarget.checked)} />
            <ChannelIcon private={channel.invite_only} />
            {channel.name}
          </label>
        ))}
      </fieldset>
      <label class="checkbox">
        <input type="checkbox" checked={withDefaults.value} onChange={(event) => (withDefaults.value = event.currentTarget.checked)} />
        Also join the organization’s default channels
      </label>
      <label>
        Invitation expires after
        <select value={expiry.value} onChange={(event) => (expiry.value = event.currentTarget.value)}>
          {EXPIRIES.map((choice, index) => (
            <option key={choice.label} value={String(index)}>
              {choice.label}
            </option>
          ))}
        </select>
      </label>
      <div class="form-buttons">
        <button type="button" onClick={() => void createLink()}>
          Create invite link
        </button>
        <button type="submit" class="primary">
          Send invitation
        </button>
      </div>
      {link.value && <InviteLink url={link.value} />}
    </form>
  );
}

/** A reusable link, to copy: whoever holds it may join with it until it expires or is revoked. */
function InviteLink({ url }: { url: string }) {
  async function copy(): Promise<void> {
    try {
      await navigator.clipboard.writeText(url);
      notify('Invite link copied.');
    } catch {
      // Without clipboard permission the field above still shows it, to copy by hand.
      notify('Could not copy: select the link and copy it.', 'error');
    }
  }
  return (
    <div class="form-buttons">
      <label>
        Invite link
        <input type="text" readOnly value={url} onFocus={(event) => event.currentTarget.select()} />
      </label>
      <button type="button" onClick={() => void copy()}>
        Copy link
      </button>
    </div>
  );
}

function PendingInvitations({ changed }: Props) {
  const { session } = useChat();
  const invites = useFetched(() => fetchInvites(session), [changed.value]);
  const when = useWhen();
  return (
    <>
      <h4>Open invitations</h4>
      <FetchState what="the invitations" fetched={invites} />
      {invites.value?.length === 0 && <p class="hint">None: every invitation was accepted, revoked or has expired.</p>}
      {invites.value && invites.value.length > 0 && (
        <ul class="admin-list" aria-label="Open invitations">
          {invites.value.map((invite) => (
            <RemovableRow
              key={`${invite.is_multiuse}-${invite.id}`}
              action="Revoke"
              label={invite.is_multiuse ? `Revoke invite link ${invite.id}` : `Revoke the invitation for ${invite.email}`}
              danger
              onRemove={() =>
                void attempt('Could not revoke the invitation', () =>
                  session.api.delete(invite.is_multiuse ? `/invites/multiuse/${invite.id}` : `/invites/${invite.id}`),
                ).then((done) => {
                  if (done) changed.value++;
                })
              }
            >
              <span class="admin-item-title">{invite.is_multiuse ? 'Reusable invite link' : invite.email}</span>
              {invite.link_url && <span class="hint admin-invite-link">{invite.link_url}</span>}
              <span class="hint">
                {roleName(invite.invited_as)} · invited by {session.realm.userName(invite.invited_by_user_id)} ·{' '}
                {invite.expiry_date === null ? 'never expires' : `expires ${when(invite.expiry_date)}`}
              </span>
            </RemovableRow>
          ))}
        </ul>
      )}
    </>
  );
}
