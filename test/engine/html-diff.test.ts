import { describe, expect, it } from 'vitest';
import { htmlDiff } from '../../src/engine/markdown/html-diff.ts';

describe('the HTML diff of two renderings', () => {
  it('wraps the result in a div and leaves unchanged text alone', () => {
    expect(htmlDiff('<p>same words</p>', '<p>same words</p>')).toBe('<div><p>same words</p></div>');
  });

  it('marks inserted words', () => {
    expect(htmlDiff('<p>a b</p>', '<p>a new words b</p>')).toBe(
      '<div><p>a <span class="highlight_text_inserted">new words</span> b</p></div>',
    );
  });

  it('puts deleted words back where they were', () => {
    expect(htmlDiff('<p>a x b</p>', '<p>a b</p>')).toBe('<div><p>a <span class="highlight_text_deleted">x</span> b</p></div>');
  });

  it('shows a replacement as the new words followed by the old', () => {
    expect(htmlDiff('<p>Hello!</p>', '<p>Howdy!</p>')).toBe(
      '<div><p><span class="highlight_text_inserted">Howdy!</span> <span class="highlight_text_deleted">Hello!</span></p></div>',
    );
  });

  it('keeps words deleted from the start inside the paragraph', () => {
    expect(htmlDiff('<p>Hello world</p>', '<p>world</p>')).toBe(
      '<div><p><span class="highlight_text_deleted">Hello</span> world</p></div>',
    );
  });

  it('keeps the new markup around inserted text', () => {
    expect(htmlDiff('<p>one</p>\n<p>two</p>', '<p>one</p>\n<p>two <strong>three</strong></p>')).toBe(
      '<div><p>one</p>\n<p>two <strong><span class="highlight_text_inserted">three</span></strong></p></div>',
    );
  });

  it('compares emoji images like words', () => {
    const cat = '<img alt=":cat:" class="emoji" src="/cat.png" title="cat">';
    const dog = '<img alt=":dog:" class="emoji" src="/dog.png" title="dog">';
    expect(htmlDiff(`<p>pet ${cat}</p>`, `<p>pet ${dog}</p>`)).toBe(
      `<div><p>pet <span class="highlight_text_inserted">${dog}</span> <span class="highlight_text_deleted">${cat}</span></p></div>`,
    );
  });

  it('shows everything deleted when the new rendering is empty', () => {
    expect(htmlDiff('<p>gone now</p>', '')).toBe('<div><span class="highlight_text_deleted">gone now</span></div>');
  });
});
