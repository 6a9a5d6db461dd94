import { verifyPassword } from '../auth/passwords.ts';
import { ApiError } from '../http/api-error.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { str } from '../http/param-types.ts';

const authenticationFailed = () =>
  new ApiError('Your username or password is incorrect', { code: 'AUTHENTICATION_FAILED', status: 401 });

export const authEndpoints = [
  defineEndpoint({
    method: 'POST',
    path: '/fetch_api_key',
    auth: 'none',
    params: { username: str(), password: str() },
    async handler(ctx, { username, password }) {
      const user = await ctx.engine.db.users.where('email_key').equals(username.trim().toLowerCase()).first();
      if (!user?.password_hash || !(await verifyPassword(password, user.password_hash))) {
        throw authenticationFailed();
      }
      if (!user.is_active) {
        throw new ApiError('Account is deactivated', { code: 'USER_DEACTIVATED', status: 401 });
      }
      return { api_key: user.api_key, email: user.email, user_id: user.id };
    },
  }),
];
