/** The scenario files under public/scenarios/ that the console offers (one line per file). */
export const SCENARIOS: readonly { name: string; title: string }[] = [
  { name: 'demo', title: 'Lakeside Labs (demo)' },
  { name: 'training-basics', title: 'Harbor Training (basics)' },
];
