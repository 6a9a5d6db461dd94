import { acceptInvite } from '../actions/create-user.ts';
import { joinWithInviteLink } from '../actions/invite-links.ts';
import { outgoingMailFor } from '../actions/invites.ts';
import { checkFullName } from '../actions/users.ts';
import { hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../auth/passwords.ts';
import { badRequest } from '../errors/api-error.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { pathId, str } from '../http/param-types.ts';

/** Upstream's limit on an email address (Django's EmailField). */
const MAX_EMAIL_LENGTH = 254;

/** The new account's name and password checked, the password hashed. */
async function checkNewAccount(
  iterations: number | undefined,
  params: { full_name: string; password: string },
): Promise<{ fullName: string; passwordHash: string }> {
  const fullName = checkFullName(params.full_name);
  if (params.password.length < PASSWORD_MIN_LENGTH) throw badRequest('The password is too weak.');
  if (params.password.length > PASSWORD_MAX_LENGTH) throw badRequest('The password is too long.');
  return { fullName, passwordHash: await hashPassword(params.password, iterations) };
}

/**
 * Routes that stand in for what upstream does outside the API (README, "Sandbox routes"):
 * no mail leaves this server, so an invitee accepts through an API call, and administrators
 * read the mail the server would have sent.
 */
export const sandboxEndpoints = [
  defineEndpoint({
    method: 'POST',
    path: '/sandbox/invites/{invite_id}/accept',
    // The invitee has no account yet: the confirmation key from the invitation mail is the credential.
    auth: 'none',
    params: { invite_id: pathId(), key: str(), full_name: str(), password: str() },
    // Hashing awaits WebCrypto, which would let the transaction commit early.
    prepare: (ctx, params) => checkNewAccount(ctx.engine.passwordIterations, params),
    async write(scope, params, account) {
      const user = await acceptInvite(scope, { inviteId: params.invite_id, key: params.key, ...account });
      return { user_id: user.id, email: user.email, api_key: user.api_key };
    },
  }),
  defineEndpoint({
    method: 'POST',
    path: '/sandbox/invites/multiuse/{invite_id}/accept',
    // Anyone holding the reusable link (which carries the key) may create an account with it.
    auth: 'none',
    params: { invite_id: pathId(), key: str(), email: str().max(MAX_EMAIL_LENGTH), full_name: str(), password: str() },
    prepare: (ctx, params) => checkNewAccount(ctx.engine.passwordIterations, params),
    async write(scope, params, account) {
      const user = await joinWithInviteLink(scope, { inviteId: params.invite_id, key: params.key, email: params.email, ...account });
      return { user_id: user.id, email: user.email, api_key: user.api_key };
    },
  }),
  defineEndpoint({
    method: 'GET',
    path: '/sandbox/outgoing_mail',
    auth: 'admin',
    params: {},
    async read(scope) {
      return { outgoing_mail: await outgoingMailFor(scope) };
    },
  }),
];
