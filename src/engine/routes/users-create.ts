import { checkEmailFree, checkMayCreateUsers, checkNewUserEmail, checkPasswordStrength, createUserByAdmin } from '../actions/admin-create-user.ts';
import { checkFullName } from '../actions/users.ts';
import { hashPassword } from '../auth/passwords.ts';
import { callerRead, defineEndpoint } from '../http/endpoint.ts';
import { str } from '../http/param-types.ts';

/** POST /users: upstream's create_user_backend (administrators holding `can_create_users`). */
export const userCreateEndpoints = [
  defineEndpoint({
    method: 'POST',
    path: '/users',
    auth: 'admin',
    params: { email: str(), password: str(), full_name: str() },
    // Upstream's order of checks; the password is hashed here, since WebCrypto would let the transaction commit early.
    async prepare(ctx, params) {
      checkMayCreateUsers(ctx.user);
      const fullName = checkFullName(params.full_name);
      const email = params.email.trim();
      checkNewUserEmail(email);
      await callerRead(ctx, ctx.user, async ({ directory }) => checkEmailFree(directory, email));
      checkPasswordStrength(params.password);
      return { email, fullName, passwordHash: await hashPassword(params.password, ctx.engine.passwordIterations) };
    },
    async write(scope, _params, account) {
      const user = await createUserByAdmin(scope, account);
      return { user_id: user.id };
    },
  }),
];
