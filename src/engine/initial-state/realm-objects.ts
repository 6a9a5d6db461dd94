import { byFolderOrder, channelFolderToWire } from '../wire/channel-folder-wire.ts';
import { linkifiersToWire } from '../wire/linkifier-wire.ts';
import { realmPlaygroundsToWire } from '../wire/realm-playground-wire.ts';
import { realmEmojiToWire } from '../wire/realm-emoji-wire.ts';
import { listProfileFields, profileFieldToWire } from '../wire/profile-field-wire.ts';
import type { StateContext } from './state-context.ts';

/** The kinds of custom profile field this server supports, by upstream's ids and names. */
const CUSTOM_PROFILE_FIELD_TYPES = {
  SHORT_TEXT: { id: 1, name: 'Text (short)' },
  LONG_TEXT: { id: 2, name: 'Text (long)' },
  SELECT: { id: 3, name: 'List of options' },
  DATE: { id: 4, name: 'Date picker' },
  URL: { id: 5, name: 'Link' },
  USER: { id: 6, name: 'Person picker' },
  EXTERNAL_ACCOUNT: { id: 7, name: 'External account' },
  PRONOUNS: { id: 8, name: 'Pronouns' },
};

/** `realm_emoji`: the realm's custom emoji. */
export function realmEmojiSection(ctx: StateContext): Record<string, unknown> {
  return { realm_emoji: realmEmojiToWire(ctx.directory.emoji) };
}

/** `realm_playgrounds`: the realm's code playgrounds. */
export async function playgroundsSection(ctx: StateContext): Promise<Record<string, unknown>> {
  return { realm_playgrounds: realmPlaygroundsToWire(await ctx.db.realm_playgrounds.toArray()) };
}

/** `realm_linkifiers`: empty for clients that cannot read RFC 6570 URL templates. */
export function linkifiersSection(ctx: StateContext): Record<string, unknown> {
  if (!ctx.capabilities.linkifier_url_template) return { realm_linkifiers: [] };
  return { realm_linkifiers: linkifiersToWire(ctx.directory.linkifiers) };
}

/** `custom_profile_fields`: the realm's fields in display order, and the fixed field types. */
export async function customProfileFieldsSection(ctx: StateContext): Promise<Record<string, unknown>> {
  const fields = await listProfileFields(ctx.db);
  return { custom_profile_fields: fields.map(profileFieldToWire), custom_profile_field_types: CUSTOM_PROFILE_FIELD_TYPES };
}

/** `default_streams`: the ids of the channels new users join. */
export function defaultStreamsSection(ctx: StateContext): Record<string, unknown> {
  return { realm_default_streams: [...ctx.directory.realm.default_channel_ids] };
}

/** `channel_folders`: archived folders only for clients that handle archived channels. */
export async function channelFoldersSection(ctx: StateContext): Promise<Record<string, unknown>> {
  const folders = await ctx.db.channel_folders.toArray();
  return {
    channel_folders: folders
      .filter((f) => ctx.capabilities.archived_channels || !f.is_archived)
      .sort(byFolderOrder)
      .map(channelFolderToWire),
  };
}
