import { devFetchApiKey } from '../auth/dev-fetch-api-key.ts';
import { fetchApiKey } from '../auth/fetch-api-key.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { str } from '../http/param-types.ts';

export const authEndpoints = [
  defineEndpoint({
    method: 'POST',
    path: '/fetch_api_key',
    auth: 'none',
    params: { username: str(), password: str() },
    // A handler, not `read`: the password is verified after the snapshot, outside it (WebCrypto).
    async handler(ctx, { username, password }) {
      return fetchApiKey(ctx.engine, { username, password, clientAddress: ctx.clientAddress });
    },
  }),
  defineEndpoint({
    method: 'POST',
    path: '/dev_fetch_api_key',
    auth: 'none',
    params: { username: str() },
    handler: async (ctx, { username }) => devFetchApiKey(ctx.engine, username),
  }),
];
