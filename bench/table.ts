// The bench's Markdown table.

export interface Row {
  figure: string;
  measured: string;
  baseline: string;
  ratio: string;
  target: string;
  /** null: informational, no target. */
  pass: boolean | null;
}

export function markdownTable(rows: readonly Row[]): string {
  const header = ['figure', 'measured', 'baseline', 'ratio', 'target', 'result'];
  const lines = [header, header.map(() => '---')];
  for (const row of rows) {
    lines.push([row.figure, row.measured, row.baseline, row.ratio, row.target, row.pass === null ? '—' : row.pass ? 'pass' : 'FAIL']);
  }
  return lines.map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

export const fixed = (value: number, digits = 2): string => value.toFixed(digits);
