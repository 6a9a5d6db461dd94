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

/** `realm_emoji`: every custom emoji, deactivated ones included, keyed by id. */
export function realmEmojiSection(ctx: StateContext): Record<string, unknown> {
  const emoji = [...ctx.directory.emoji].sort((a, b) => a.id - b.id);
  return {
    realm_emoji: Object.fromEntries(
      emoji.map((e) => [
        String(e.id),
        { id: String(e.id), name: e.name, source_url: e.source_url, still_url: null, deactivated: e.deactivated, author_id: e.author_id },
      ]),
    ),
  };
}

/** `realm_linkifiers`: empty for clients that cannot read RFC 6570 URL templates. */
export function linkifiersSection(ctx: StateContext): Record<string, unknown> {
  if (!ctx.capabilities.linkifier_url_template) return { realm_linkifiers: [] };
  return {
    realm_linkifiers: ctx.directory.linkifiers.map((l) => ({ id: l.id, pattern: l.pattern, url_template: l.url_template })),
  };
}

/** `custom_profile_fields`: none are defined yet; the field types are fixed. */
export function customProfileFieldsSection(): Record<string, unknown> {
  return { custom_profile_fields: [], custom_profile_field_types: CUSTOM_PROFILE_FIELD_TYPES };
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
      .sort((a, b) => a.order - b.order || a.id - b.id)
      .map((f) => ({
        id: f.id,
        name: f.name,
        description: f.description,
        rendered_description: f.rendered_description,
        order: f.order,
        date_created: f.date_created,
        creator_id: f.creator_id,
        is_archived: f.is_archived,
      })),
  };
}
