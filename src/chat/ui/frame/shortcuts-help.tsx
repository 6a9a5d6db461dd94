import { Dialog } from '../dialog.tsx';
import { SHORTCUTS } from './shortcuts.ts';

/** Upstream's Keyboard shortcuts help (`?`): every key the app answers, outside text fields. */
export function ShortcutsHelp({ onClose }: { onClose(): void }) {
  return (
    <Dialog title="Keyboard shortcuts" onClose={onClose}>
      <table class="shortcuts-table">
        <tbody>
          {SHORTCUTS.map(({ keys, does }) => (
            <tr key={does}>
              <td>
                {keys.map((key, i) => (
                  <>
                    {i > 0 && ' + '}
                    <kbd>{key}</kbd>
                  </>
                ))}
              </td>
              <td>{does}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Dialog>
  );
}
