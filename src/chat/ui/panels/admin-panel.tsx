import { useSignal } from '@preact/signals';
import { ChannelFolders } from './admin/channel-folders.tsx';
import { CreateChannel } from './create-channel.tsx';
import { Invitations } from './admin/invitations.tsx';
import { Linkifiers } from './admin/linkifiers.tsx';
import { OrganizationSettings } from './admin/organization-settings.tsx';
import { OutgoingMail } from './admin/outgoing-mail.tsx';
import { ProfileFields } from './admin/profile-fields.tsx';
import { UserGroups } from './admin/user-groups.tsx';
import { UsersAdmin } from './admin/users-admin.tsx';

/** Administration for owners and administrators: channels, people, and the realm's settings. */
export function AdminPanel() {
  // The invitations and the mail have no events the app follows: the sections that change them
  // bump this, and the sections that show them refetch.
  const mailChanged = useSignal(0);
  return (
    <div class="admin">
      <OrganizationSettings />
      <CreateChannel />
      <ChannelFolders />
      <Invitations changed={mailChanged} />
      <OutgoingMail changed={mailChanged} />
      <UsersAdmin mailChanged={mailChanged} />
      <UserGroups />
      <ProfileFields />
      <Linkifiers />
    </div>
  );
}
