import { Dialog } from '../dialog.tsx';
import { SHORTCUT_HELP } from './shortcut-table.ts';

/** Upstream's Keyboard shortcuts help (`?`): every key the app answers, by section. */
export function ShortcutsHelp({ onClose }: { onClose(): void }) {
  return (
    <Dialog title="Keyboard shortcuts" onClose={onClose} closeKey="?">
      {SHORTCUT_HELP.map((section) => (
        <section key={section.title} class="shortcuts-section">
          <h3>{section.title}</h3>
          <table class="shortcuts-table">
            <tbody>
              {section.shortcuts.map(({ keys, does }) => (
                <tr key={does}>
                  <td>
                    {keys.map((combination, i) => (
                      <>
                        {i > 0 && ' or '}
                        {combination.map((key, j) => (
                          <>
                            {j > 0 && ' + '}
                            <kbd>{key}</kbd>
                          </>
                        ))}
                      </>
                    ))}
                  </td>
                  <td>{does}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </Dialog>
  );
}
