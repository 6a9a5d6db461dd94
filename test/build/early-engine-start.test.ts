import type { ResolvedConfig } from 'vite';
import { expect, test } from 'vitest';
import { earlyEngineStart } from '../../build/early-engine-start.ts';

type Bundle = Record<string, { type: 'asset' | 'chunk'; source?: string }>;

/** The plugin's two hooks, called as Vite calls them at build time. */
function runPlugin(bundle: Bundle): Bundle {
  const plugin = earlyEngineStart() as unknown as {
    configResolved(config: Pick<ResolvedConfig, 'base'>): void;
    generateBundle: { handler(options: unknown, bundle: Bundle): void };
  };
  plugin.configResolved({ base: '/' });
  plugin.generateBundle.handler({}, bundle);
  return bundle;
}

const PAGE = '<!doctype html>\n<html>\n  <head>\n    <meta charset="utf-8" />\n    <link rel="stylesheet" href="/assets/index.css">\n  </head>\n</html>';

test('the built page starts the engine worker first in its head, with the name and options the app uses', () => {
  const bundle = runPlugin({ 'index.html': { type: 'asset', source: PAGE }, 'assets/engine-worker-AbC_12-x.js': { type: 'chunk' }, 'console.html': { type: 'asset', source: PAGE } });

  expect(bundle['index.html'].source).toBe(
    '<!doctype html>\n<html>\n  <head>\n' +
      `    <script>if (typeof SharedWorker === 'function') new SharedWorker("/assets/engine-worker-AbC_12-x.js", {"type":"module","name":"offline-realm-engine","extendedLifetime":true});</script>\n` +
      '    <meta charset="utf-8" />\n    <link rel="stylesheet" href="/assets/index.css">\n  </head>\n</html>',
  );
  expect(bundle['console.html'].source).toBe(PAGE);
});

test('a build without exactly one engine worker bundle fails instead of starting the wrong file', () => {
  expect(() => runPlugin({ 'index.html': { type: 'asset', source: PAGE } })).toThrow('expected one engine worker bundle, found 0');
  expect(() =>
    runPlugin({ 'index.html': { type: 'asset', source: PAGE }, 'assets/engine-worker-a.js': { type: 'chunk' }, 'assets/engine-worker-b.js': { type: 'chunk' } }),
  ).toThrow('found 2');
});
