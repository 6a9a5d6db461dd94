import { notices } from '../notices.ts';

/** Transient notices: failures with the server's words (announced at once), and confirmations. */
export function NoticeList() {
  return (
    <div class="notices" aria-live="polite">
      {notices.value.map((notice) => (
        <p key={notice.id} class={`notice ${notice.kind}`} role={notice.kind === 'error' ? 'alert' : 'status'}>
          {notice.text}
        </p>
      ))}
    </div>
  );
}
