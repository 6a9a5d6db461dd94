import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The workspace's shared spec sits beside the clone; a clone elsewhere has only the copy.
const SHARED = new URL('../../../shared/spec/', import.meta.url);
const COPY = new URL('../../docs/spec/', import.meta.url);

describe.skipIf(!existsSync(SHARED))('docs/spec', () => {
  it.each(['api-spec.md', 'runtime-contract.md'])('holds %s exactly as the shared spec has it', (name) => {
    expect(readFileSync(new URL(name, COPY), 'utf8')).toBe(readFileSync(new URL(name, SHARED), 'utf8'));
  });
});
