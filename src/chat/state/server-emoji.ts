import type { ApiClient } from '../api/api-client.ts';

/** One Unicode emoji the server accepts: its code, names (canonical first) and picker category. */
export interface ServerEmoji {
  code: string;
  names: string[];
  /** Upstream's picker category ("Smileys & Emotion"), when the server's file has `emoji_catalog`. */
  category?: string;
}

interface EmojiDataFile {
  code_to_names?: Record<string, string[]>;
  /** This server's extra key (upstream's emoji_codes.json names it so): category -> codes in order. */
  emoji_catalog?: Record<string, string[]>;
}

/**
 * The file's emoji in its categories' order; those no category lists (all, from a server without
 * `emoji_catalog`) after them in the file's own order.
 */
export function serverEmojiList(data: EmojiDataFile): ServerEmoji[] {
  const codeToNames = data.code_to_names ?? {};
  const listed: ServerEmoji[] = [];
  const placed = new Set<string>();
  for (const [category, codes] of Object.entries(data.emoji_catalog ?? {})) {
    for (const code of codes) {
      const names = codeToNames[code];
      if (!names || placed.has(code)) continue;
      placed.add(code);
      listed.push({ code, names, category });
    }
  }
  const rest = Object.entries(codeToNames).filter(([code]) => !placed.has(code));
  return [...listed, ...rest.map(([code, names]) => ({ code, names }))];
}

/**
 * The server's Unicode emoji (register's `server_emoji_data_url`), fetched once, when first
 * wanted (the picker, `:` suggestions): two thousand entries nobody needs at login.
 */
export class ServerEmojiData {
  readonly #api: ApiClient;
  readonly #url: string | undefined;
  #loading: Promise<ServerEmoji[]> | undefined;

  constructor(api: ApiClient, url: string | undefined) {
    this.#api = api;
    this.#url = url;
  }

  load(): Promise<ServerEmoji[]> {
    this.#loading ??= this.#fetch();
    return this.#loading;
  }

  async #fetch(): Promise<ServerEmoji[]> {
    if (!this.#url) return [];
    try {
      const response = await fetch(this.#api.resolve(this.#url));
      return serverEmojiList((await response.json()) as EmojiDataFile);
    } catch {
      // Without the file the picker still offers the popular emoji and any typed name.
      this.#loading = undefined;
      return [];
    }
  }
}
