import type { ApiClient } from '../api/api-client.ts';

/** One Unicode emoji the server accepts: its code and names (canonical first). */
export interface ServerEmoji {
  code: string;
  names: string[];
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
      const data = (await response.json()) as { code_to_names?: Record<string, string[]> };
      return Object.entries(data.code_to_names ?? {}).map(([code, names]) => ({ code, names }));
    } catch {
      // Without the file the picker still offers the popular emoji and any typed name.
      this.#loading = undefined;
      return [];
    }
  }
}
