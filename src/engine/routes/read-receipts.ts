import { readReceipts } from '../actions/read-receipts.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { pathId } from '../http/param-types.ts';

export const readReceiptEndpoints = [
  defineEndpoint({
    method: 'GET',
    path: '/messages/{message_id}/read_receipts',
    params: { message_id: pathId() },
    async read(scope, params) {
      return { user_ids: await readReceipts(scope, params.message_id) };
    },
  }),
];
