import { defineEndpoint } from '../http/endpoint.ts';
import { bool, str } from '../http/param-types.ts';
import { bigBlueButtonUrl } from '../wire/video-call-urls.ts';

export const videoCallEndpoints = [
  defineEndpoint({
    method: 'GET',
    path: '/calls/bigbluebutton/create',
    params: { meeting_name: str(), voice_only: bool().default(false) },
    // No database work, and signing awaits Web Crypto, which would end a read transaction early.
    async handler(ctx, params) {
      return { url: await bigBlueButtonUrl({ meetingName: params.meeting_name, voiceOnly: params.voice_only, moderatorId: ctx.user.id }) };
    },
  }),
];
