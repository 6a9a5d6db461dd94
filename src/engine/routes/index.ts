import type { Endpoint } from '../http/endpoint.ts';
import { authEndpoints } from './auth.ts';
import { messageFetchEndpoints } from './messages-fetch.ts';
import { messageSendEndpoints } from './messages-send.ts';
import { messageEditEndpoints } from './messages-edit.ts';
import { reactionEndpoints } from './reactions.ts';
import { messageFlagEndpoints } from './message-flags.ts';
import { registerEndpoints } from './register.ts';
import { eventEndpoints } from './events.ts';
import { usersReadEndpoints } from './users-read.ts';
import { serverSettingsEndpoints } from './server-settings.ts';
import { avatarEndpoints } from './avatars.ts';
import { channelsReadEndpoints } from './channels-read.ts';

/** Every endpoint of the API; each routes file owns one family. */
export const ALL_ENDPOINTS: Endpoint[] = [...authEndpoints, ...messageSendEndpoints, ...messageFetchEndpoints, ...messageEditEndpoints, ...reactionEndpoints, ...messageFlagEndpoints, ...registerEndpoints, ...eventEndpoints, ...usersReadEndpoints, ...serverSettingsEndpoints, ...avatarEndpoints, ...channelsReadEndpoints];
