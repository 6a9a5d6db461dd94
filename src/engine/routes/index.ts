import type { Endpoint } from '../http/endpoint.ts';
import { authEndpoints } from './auth.ts';
import { messageFetchEndpoints } from './messages-fetch.ts';
import { messageSendEndpoints } from './messages-send.ts';
import { messageRenderEndpoints } from './messages-render.ts';
import { messageEditEndpoints } from './messages-edit.ts';
import { reactionEndpoints } from './reactions.ts';
import { messageFlagEndpoints } from './message-flags.ts';
import { registerEndpoints } from './register.ts';
import { eventEndpoints } from './events.ts';
import { usersReadEndpoints } from './users-read.ts';
import { serverSettingsEndpoints } from './server-settings.ts';
import { avatarEndpoints } from './avatars.ts';
import { channelsReadEndpoints } from './channels-read.ts';
import { subscriptionEndpoints } from './subscriptions.ts';
import { scheduledMessageEndpoints } from './scheduled-messages.ts';
import { reminderEndpoints } from './reminders.ts';
import { linkifierEndpoints } from './linkifiers.ts';
import { navigationViewEndpoints } from './navigation-views.ts';
import { savedSnippetEndpoints } from './saved-snippets.ts';
import { draftEndpoints } from './drafts.ts';
import { alertWordEndpoints } from './alert-words.ts';
import { realmEmojiEndpoints } from './realm-emoji.ts';
import { userTopicEndpoints } from './user-topics.ts';
import { typingEndpoints } from './typing.ts';
import { presenceEndpoints } from './presence.ts';

import { usersWriteEndpoints } from './users-write.ts';
import { profileFieldEndpoints } from './profile-fields.ts';
import { settingsEndpoints } from './settings.ts';
import { inviteEndpoints } from './invites.ts';
import { sandboxEndpoints } from './sandbox.ts';
import { userGroupEndpoints } from './user-groups.ts';
import { channelWriteEndpoints } from './channels-write.ts';
import { channelQueryEndpoints } from './channel-queries.ts';
import { channelFolderEndpoints } from './channel-folders.ts';

/** Every endpoint of the API; each routes file owns one family. */
export const ALL_ENDPOINTS: Endpoint[] = [...authEndpoints, ...messageSendEndpoints, ...messageRenderEndpoints, ...messageFetchEndpoints, ...messageEditEndpoints, ...reactionEndpoints, ...messageFlagEndpoints, ...registerEndpoints, ...eventEndpoints, ...usersReadEndpoints, ...serverSettingsEndpoints, ...avatarEndpoints, ...channelsReadEndpoints, ...subscriptionEndpoints, ...scheduledMessageEndpoints, ...reminderEndpoints, ...linkifierEndpoints, ...navigationViewEndpoints, ...savedSnippetEndpoints, ...draftEndpoints, ...alertWordEndpoints, ...realmEmojiEndpoints, ...userTopicEndpoints, ...typingEndpoints, ...presenceEndpoints, ...usersWriteEndpoints, ...profileFieldEndpoints, ...settingsEndpoints, ...inviteEndpoints, ...sandboxEndpoints, ...userGroupEndpoints, ...channelWriteEndpoints, ...channelQueryEndpoints, ...channelFolderEndpoints];
