import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { useChat } from '../../chat-context.ts';

export interface Fetched<T> {
  value: T | null;
  /** The server's `msg` when the last fetch failed. */
  error: string | null;
  reload(): void;
}

/**
 * A list the realm state does not keep (the app follows no events for it): fetched on first
 * show, again on `reload()`, when one of `deps` changes, and after a re-registration.
 */
export function useFetched<T>(load: () => Promise<T>, deps: unknown[] = []): Fetched<T> {
  const { session } = useChat();
  const value = useSignal<T | null>(null);
  const error = useSignal<string | null>(null);
  const version = useSignal(0);
  useEffect(() => {
    let current = true;
    load().then(
      (loaded) => {
        if (!current) return;
        value.value = loaded;
        error.value = null;
      },
      (failure: unknown) => {
        if (current) error.value = failure instanceof Error ? failure.message : String(failure);
      },
    );
    // A slower, older answer must not overwrite a newer one.
    return () => {
      current = false;
    };
  }, [version.value, session.generation.value, ...deps]);
  return { value: value.value, error: error.value, reload: () => version.value++ };
}

/** The list's state in words: loading, or why it could not be loaded. */
export function FetchState({ what, fetched }: { what: string; fetched: Fetched<unknown> }) {
  if (fetched.error) {
    return (
      <p class="form-error" role="alert">
        Could not load {what}: {fetched.error}{' '}
        <button type="button" class="small" onClick={fetched.reload}>
          Retry
        </button>
      </p>
    );
  }
  return fetched.value === null ? <p class="hint">Loading {what}…</p> : null;
}
