import { acceptInvite } from '../actions/create-user.ts';
import { readSnapshot, runAction } from '../actions/run-action.ts';
import { checkFullName } from '../actions/users.ts';
import { hashPassword } from '../auth/passwords.ts';
import { badRequest, unauthorizedPrincipal } from '../http/api-error.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { pathId, str } from '../http/param-types.ts';
import { ROLE_ADMIN } from '../storage/rows.ts';

/** The realm's `password_min_length` / `password_max_length` (register). */
const PASSWORD_MIN_LENGTH = 6;
const PASSWORD_MAX_LENGTH = 100;

/**
 * Routes that stand in for what upstream does outside the API (README, "Sandbox routes"):
 * no mail leaves this server, so an invitee accepts through an API call, and administrators
 * read the mail the server would have sent.
 */
export const sandboxEndpoints = [
  defineEndpoint({
    method: 'POST',
    path: '/sandbox/invites/{invite_id}/accept',
    // The invitee has no account yet: the invitation itself is the credential.
    auth: 'none',
    params: { invite_id: pathId(), full_name: str(), password: str() },
    async handler(ctx, params) {
      const fullName = checkFullName(params.full_name);
      if (params.password.length < PASSWORD_MIN_LENGTH) throw badRequest('The password is too weak.');
      if (params.password.length > PASSWORD_MAX_LENGTH) throw badRequest('The password is too long.');
      const passwordHash = await hashPassword(params.password, ctx.engine.passwordIterations);
      const user = await runAction(ctx.engine, (scope) => acceptInvite(scope, params.invite_id, { fullName, passwordHash }));
      return { user_id: user.id, email: user.email, api_key: user.api_key };
    },
  }),
  defineEndpoint({
    method: 'GET',
    path: '/sandbox/outgoing_mail',
    params: {},
    async handler(ctx) {
      if (ctx.user.role > ROLE_ADMIN) throw unauthorizedPrincipal('Must be an organization administrator');
      const mail = await readSnapshot(ctx.engine, (db) => db.outgoing_mail.orderBy('id').toArray());
      return { outgoing_mail: mail };
    },
  }),
];
