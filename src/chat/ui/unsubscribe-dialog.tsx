import type { Channel } from '../api/wire-types.ts';
import { useChat } from './chat-context.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { unsubscribe } from './subscription-operations.ts';

/** Leaving a private channel may be for good: asked first, as upstream asks. */
export function ConfirmUnsubscribe({ channel, onClose }: { channel: Channel; onClose(): void }) {
  const { session } = useChat();
  return (
    <ConfirmDialog title={`Unsubscribe from #${channel.name}?`} action="Unsubscribe" onClose={onClose} onConfirm={() => unsubscribe(session, channel.name)}>
      <p>This channel is private: once you leave it, you cannot subscribe again unless someone who may add subscribers adds you.</p>
    </ConfirmDialog>
  );
}
