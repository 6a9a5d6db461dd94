import { signal, type Signal } from '@preact/signals';
import { ApiFailure, type ApiClient } from '../api/api-client.ts';
import { insertBlock, removeBlock, replaceFirst, tooLargeMessage, uploadedLink, uploadPlaceholder, UPLOADS_DISABLED } from './upload-syntax.ts';

/** What uploads change in the compose box: its text and its error line. */
export interface UploadTarget {
  readonly content: Signal<string>;
  readonly error: Signal<string | null>;
  setContent(text: string, options?: { keepError?: boolean }): void;
}

export interface UploadInFlight {
  id: number;
  name: string;
  cancel(): void;
}

let nextUploadId = 1;

/**
 * The compose box's uploads, as upstream's: each file leaves a placeholder where the caret was,
 * replaced by its link once `POST /user_uploads` answers; a refused file's placeholder goes and
 * the server's message shows. Files over the server's limit are refused before they are sent.
 */
export class ComposeUploads {
  readonly inFlight = signal<readonly UploadInFlight[]>([]);
  readonly #api: ApiClient;
  readonly #limitMib: Signal<number>;
  readonly #target: UploadTarget;

  constructor(api: ApiClient, limitMib: Signal<number>, target: UploadTarget) {
    this.#api = api;
    this.#limitMib = limitMib;
    this.#target = target;
  }

  /** Starts uploading `files` in place of the selection; returns the caret after their placeholders, null if none went. */
  add(files: readonly File[], selection: { start: number; end: number }): number | null {
    if (files.length === 0) return null;
    const limitMib = this.#limitMib.value;
    if (limitMib === 0) {
      this.#target.error.value = UPLOADS_DISABLED;
      return null;
    }
    const refusals: string[] = [];
    const accepted: File[] = [];
    let text = this.#target.content.value;
    let caret: number | null = null;
    let { start, end } = selection;
    for (const file of files) {
      if (file.size > limitMib * 1024 * 1024) {
        refusals.push(tooLargeMessage(file.name, limitMib));
        continue;
      }
      ({ text, caret } = insertBlock(text, start, end, uploadPlaceholder(file.name)));
      start = end = caret;
      accepted.push(file);
    }
    if (accepted.length > 0) this.#target.setContent(text);
    if (refusals.length > 0) this.#target.error.value = refusals.join(' ');
    for (const file of accepted) void this.#upload(file);
    return caret;
  }

  async #upload(file: File): Promise<void> {
    const placeholder = uploadPlaceholder(file.name);
    const controller = new AbortController();
    const entry: UploadInFlight = { id: nextUploadId++, name: file.name, cancel: () => controller.abort() };
    this.inFlight.value = [...this.inFlight.value, entry];
    const target = this.#target;
    try {
      const answer = await this.#api.upload<{ url: string; filename: string }>('/user_uploads', 'filename', file, controller.signal);
      const link = uploadedLink(answer.filename, answer.url);
      const current = target.content.value;
      // The placeholder deleted meanwhile: the link still goes in, at the end.
      const replaced = replaceFirst(current, placeholder, link) ?? insertBlock(current, current.length, current.length, link).text;
      target.setContent(replaced, { keepError: true });
    } catch (error) {
      target.setContent(removeBlock(target.content.value, placeholder), { keepError: true });
      if (!controller.signal.aborted) target.error.value = error instanceof ApiFailure || error instanceof Error ? error.message : String(error);
    } finally {
      this.inFlight.value = this.inFlight.value.filter((upload) => upload !== entry);
    }
  }
}
