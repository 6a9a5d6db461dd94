import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, test } from 'vitest';
import { katexWoff2Only } from '../../build/katex-woff2-only.ts';

type Transform = (code: string, id: string) => { code: string } | undefined;
const transform = (katexWoff2Only() as unknown as { transform: Transform }).transform;
const stylesheetPath = createRequire(import.meta.url).resolve('katex/dist/katex.min.css');
const stylesheet = readFileSync(stylesheetPath, 'utf8');
const fontUrls = (css: string): string[] => [...css.matchAll(/url\((fonts\/[^)]+)\)/g)].map((match) => match[1]);

test("KaTeX's stylesheet keeps one WOFF2 source per font face and nothing else of it changes", () => {
  const trimmed = transform(stylesheet, stylesheetPath)!.code;

  const faces = stylesheet.match(/@font-face\{/g)!.length;
  expect(faces).toBeGreaterThan(15);
  expect(fontUrls(trimmed)).toHaveLength(faces);
  expect(fontUrls(trimmed).every((url) => url.endsWith('.woff2'))).toBe(true);
  expect(fontUrls(trimmed)).toEqual(fontUrls(stylesheet).filter((url) => url.endsWith('.woff2')));
  expect(trimmed.replace(/@font-face\{[^}]*\}/g, '')).toBe(stylesheet.replace(/@font-face\{[^}]*\}/g, ''));
});

test('other stylesheets are left alone, and a KaTeX stylesheet of another shape stops the build', () => {
  expect(transform('a{src:url(x.woff) format("woff")}', '/app/src/chat/styles/chat.css')).toBeUndefined();
  expect(() => transform('.katex{font:1em KaTeX_Main}', stylesheetPath)).toThrow(/no longer lists its fonts/);
});
