import { describe, expect, test } from 'vitest';
import { insertBlock, removeBlock, replaceFirst, tooLargeMessage, uploadedLink, uploadPlaceholder } from '../../src/chat/state/upload-syntax.ts';

const PLACEHOLDER = uploadPlaceholder('cat.png');

describe('the text an upload puts into the message', () => {
  test('the placeholder and the link are upstream’s, brackets dropped from the link’s name', () => {
    expect(PLACEHOLDER).toBe('[Uploading cat.png…]()');
    expect(uploadedLink('[draft] cat.png', '/user_uploads/2/ab/x.png')).toBe('[draft cat.png](/user_uploads/2/ab/x.png)');
    expect(tooLargeMessage('big.bin', 25)).toBe('big.bin exceeds the maximum file size for attachments (25 MB).');
  });

  test('a placeholder goes on a line of its own where the caret is, the caret after it', () => {
    expect(insertBlock('', 0, 0, PLACEHOLDER)).toEqual({ text: `${PLACEHOLDER}\n`, caret: PLACEHOLDER.length + 1 });
    expect(insertBlock('Look', 4, 4, PLACEHOLDER)).toEqual({ text: `Look\n${PLACEHOLDER}\n`, caret: 5 + PLACEHOLDER.length + 1 });
    expect(insertBlock('a\nb', 2, 2, PLACEHOLDER).text).toBe(`a\n${PLACEHOLDER}\nb`);
    expect(insertBlock('a b', 1, 3, PLACEHOLDER).text).toBe(`a\n${PLACEHOLDER}\n`);
  });

  test('removing a placeholder gives back the text as it was before it went in', () => {
    for (const [text, caret] of [['', 0], ['Look', 4], ['a\nb', 2], ['a\nb', 1]] as const) {
      expect(removeBlock(insertBlock(text, caret, caret, PLACEHOLDER).text, PLACEHOLDER)).toBe(text);
    }
    expect(removeBlock('nothing here', PLACEHOLDER)).toBe('nothing here');
  });

  test('the link replaces the first placeholder, and a deleted placeholder is reported', () => {
    expect(replaceFirst(`${PLACEHOLDER}\n${PLACEHOLDER}\n`, PLACEHOLDER, '[cat.png](/u)')).toBe(`[cat.png](/u)\n${PLACEHOLDER}\n`);
    expect(replaceFirst('gone', PLACEHOLDER, '[cat.png](/u)')).toBeNull();
  });
});
