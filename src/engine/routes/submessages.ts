import { addSubmessage, MAX_SUBMESSAGE_CONTENT_LENGTH, MAX_SUBMESSAGE_TYPE_LENGTH } from '../actions/submessages.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { int, str, VAR } from '../http/param-types.ts';

/** `POST /submessage`: a widget's change (a vote, an option, a task), as upstream's web app and mobile clients send it. */
export const submessageEndpoints = [
  defineEndpoint({
    method: 'POST',
    path: '/submessage',
    params: {
      message_id: int(),
      msg_type: str().max(MAX_SUBMESSAGE_TYPE_LENGTH, { error: `${VAR} is too long (limit: ${MAX_SUBMESSAGE_TYPE_LENGTH} characters)` }),
      content: str().max(MAX_SUBMESSAGE_CONTENT_LENGTH, { error: `${VAR} is too long (limit: ${MAX_SUBMESSAGE_CONTENT_LENGTH} characters)` }),
    },
    async write(scope, params) {
      await addSubmessage(scope, { messageId: params.message_id, msgType: params.msg_type, content: params.content });
      return {};
    },
  }),
];
