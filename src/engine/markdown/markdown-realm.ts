/**
 * What Markdown rendering reads of the realm (users, groups, channels, emoji, linkifiers), apart
 * from the renderer, so the render state and the syntax extensions can name it.
 */
export interface MentionableUser {
  id: number;
  full_name: string;
  email: string;
  is_active: boolean;
}

export interface MarkdownRealm {
  /** The realm's host, e.g. "lakeside.test"; links to it become relative. */
  host: string;
  /** Active and inactive users whose full name equals `name` case-insensitively. */
  usersByName(name: string): MentionableUser[];
  userById(id: number): MentionableUser | undefined;
  groupByName(name: string): { id: number; name: string } | undefined;
  channelByName(name: string): { id: number; name: string } | undefined;
  realmEmoji(name: string): { id: string; name: string; source_url: string } | undefined;
  linkifiers: ReadonlyArray<{ id: number; pattern: string; url_template: string }>;
  /** The language of a fenced block that names none (the realm's `default_code_block_language`); empty: none. */
  defaultCodeBlockLanguage?: string;
}
