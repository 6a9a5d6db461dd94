/**
 * GET /streams/{stream_id}/email_address: the address upstream's email gateway would accept for
 * a channel, built as upstream builds it (the channel's name as an ASCII slug, a token per channel,
 * requester and sender, `.show-sender`). A sandbox receives no mail: the address is real in form
 * only, and mail sent to it goes nowhere.
 */
import { badRequest } from '../errors/api-error.ts';
import { canReadChannel } from '../permissions/channel-access.ts';
import type { CallerScope } from '../services/action-scope.ts';
import { ROLE_ADMIN } from '../storage/rows.ts';

/** The sender id the token table uses for upstream's Email gateway bot, the default sender. */
const EMAIL_GATEWAY_SENDER = 0;

export async function channelEmailAddress(scope: CallerScope, channelId: number, senderId: number | undefined): Promise<string> {
  const { caller, directory } = scope;
  const channel = directory.channels.get(channelId);
  const subscribed = (await scope.db.subscriptions.get([caller.id, channelId]))?.active === 1;
  if (!channel || channel.is_archived || !canReadChannel(caller, channel, subscribed)) throw badRequest('Invalid channel ID');
  const sender = senderId === undefined || senderId === caller.id ? (senderId ?? EMAIL_GATEWAY_SENDER) : accessibleBot(scope, senderId);
  const key: [number, number, number] = [channelId, caller.id, sender];
  let token = (await scope.db.channel_email_tokens.get(key))?.email_token;
  if (token === undefined) {
    token = randomToken();
    await scope.db.channel_email_tokens.add({ channel_id: channelId, creator_id: caller.id, sender_id: sender, email_token: token });
  }
  const slug = emailNameSlug(channel.name);
  const local = `${slug === '' ? '' : `${slug}.`}${token}.show-sender`;
  return `${local}@${directory.realm.host.replace(/:\d+$/, '')}`;
}

/** Upstream's access_bot_by_id: a bot the caller administers (owns, or any bot for an administrator). */
function accessibleBot(scope: CallerScope, botId: number): number {
  const bot = scope.directory.users.get(botId);
  if (!bot || !bot.is_bot || bot.is_system_bot) throw badRequest('No such bot');
  if (scope.caller.role > ROLE_ADMIN && bot.bot_owner_id !== scope.caller.id) throw badRequest('Insufficient permission');
  return bot.id;
}

/**
 * Upstream's scheme: runs of non-word characters become `-`, then Django's slugify; a name that
 * loses letters on the way to ASCII is left out rather than mangled.
 */
function emailNameSlug(name: string): string {
  const hyphenated = name.replace(/[^\p{L}\p{N}_]+/gu, '-');
  const slug = hyphenated
    .normalize('NFKD')
    .replace(/[^\x00-\x7f]/g, '')
    .toLowerCase()
    .replace(/[^\w\s-]/g, '')
    .replace(/[-\s]+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '');
  return slug.length === hyphenated.length ? slug : '';
}

/** 32 hex characters, as upstream's generate_email_token_for_stream. */
function randomToken(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}
