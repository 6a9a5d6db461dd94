import { type Signal, useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import type { JSX } from 'preact';
import { useChat } from '../chat-context.ts';

/** The compose tool that opens the file chooser (any number of files); the input itself stays hidden. */
export function UploadButton({ onFiles }: { onFiles(files: File[]): void }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" class="compose-tool upload-button" aria-label="Upload files" title="Upload files" onClick={() => input.current?.click()}>
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
          <path
            d="M16.5 6.5v10a4.5 4.5 0 0 1-9 0V5a3 3 0 0 1 6 0v10.5a1.5 1.5 0 0 1-3 0V6.5"
            fill="none"
            stroke="currentColor"
            stroke-width="1.8"
            stroke-linecap="round"
          />
        </svg>
      </button>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        tabIndex={-1}
        onChange={(event) => {
          const files = [...(event.currentTarget.files ?? [])];
          // Choosing the same file again must fire `change` again.
          event.currentTarget.value = '';
          onFiles(files);
        }}
      />
    </>
  );
}

/**
 * The uploads on their way, each with Cancel (upstream's upload banners). The live region stays
 * in the page, empty, so that screen readers announce what appears in it.
 */
export function UploadStatus() {
  const { composer } = useChat();
  const uploads = composer.uploads.inFlight.value;
  return (
    <div class="upload-status" role="status">
      {uploads.length > 0 && (
        <ul>
          {uploads.map((upload) => (
            <li key={upload.id}>
              <span class="upload-spinner" aria-hidden="true" />
              <span class="upload-name">Uploading {upload.name}…</span>
              <button type="button" class="upload-cancel" aria-label={`Cancel uploading ${upload.name}`} onClick={upload.cancel}>
                Cancel
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

type DropHandlers = Pick<JSX.HTMLAttributes<HTMLFormElement>, 'onDragEnter' | 'onDragOver' | 'onDragLeave' | 'onDrop'>;

const carriesFiles = (event: DragEvent): boolean => event.dataTransfer?.types.includes('Files') ?? false;

/**
 * Files dropped anywhere on the page upload into the compose box, as upstream's do (and the
 * browser does not leave the app to open them); `dropping` is true while files are dragged
 * over the box itself, which the handlers mark.
 */
export function useFileDrop(onFiles: (files: File[]) => void): { dropping: Signal<boolean>; handlers: DropHandlers } {
  const dropping = useSignal(false);
  const latest = useRef(onFiles);
  latest.current = onFiles;
  useEffect(() => {
    const allow = (event: DragEvent) => {
      if (carriesFiles(event)) event.preventDefault();
    };
    const drop = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      latest.current([...(event.dataTransfer?.files ?? [])]);
    };
    addEventListener('dragover', allow);
    addEventListener('drop', drop);
    return () => {
      removeEventListener('dragover', allow);
      removeEventListener('drop', drop);
    };
  }, []);
  const over = (event: DragEvent) => {
    if (carriesFiles(event)) dropping.value = true;
  };
  return {
    dropping,
    handlers: {
      onDragEnter: over,
      onDragOver: over,
      onDragLeave: (event) => {
        // Leaving for one of the box's own fields is no leaving.
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) dropping.value = false;
      },
      // The drop itself goes on to the page's handler.
      onDrop: () => (dropping.value = false),
    },
  };
}

/** The files a paste carries (a screenshot, copied files); none for a paste of text. */
export function pastedFiles(event: ClipboardEvent): File[] {
  const files: File[] = [];
  for (const item of event.clipboardData?.items ?? []) {
    const file = item.kind === 'file' ? item.getAsFile() : null;
    if (file) files.push(file);
  }
  return files;
}
