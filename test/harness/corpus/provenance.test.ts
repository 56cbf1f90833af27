import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS_DIR, GOLDEN_DIR } from '../../helpers/corpus.js';

/**
 * The set digest of PROVENANCE.md: per file, sorted by name, `<name> <sha256>\n`, hashed; the
 * originals were CRLF, so every file but the hand-written policy is hashed with CRLF endings.
 */
function setDigest(dir: string): { digest: string; files: number } {
  const files = fs
    .readdirSync(dir)
    .filter((f) => fs.statSync(path.join(dir, f)).isFile())
    .sort();
  const lines = files.map((f) => {
    let bytes = fs.readFileSync(path.join(dir, f));
    if (f !== 'compiler-policy-v1.json')
      bytes = Buffer.from(bytes.toString('utf8').replace(/\r?\n/g, '\r\n'));
    return `${f} ${createHash('sha256').update(bytes).digest('hex')}\n`;
  });
  return { digest: createHash('sha256').update(lines.join('')).digest('hex'), files: files.length };
}

describe('the vendored reference data is untouched', () => {
  it('corpus/compiler-v1 reproduces the pinned fixture-set digest (30 files)', () => {
    expect(setDigest(CORPUS_DIR)).toEqual({
      digest: 'f16b421bc32b1a01bf22e610166de1c58115629116aefd6b68c76e801c27d030',
      files: 30,
    });
  });

  it('the goldens reproduce the pinned golden-set digest (43 files)', () => {
    expect(setDigest(GOLDEN_DIR)).toEqual({
      digest: '1b3759dc125d05549f2f335fc6b46858595e0f9d89adbb12f489bd407cb5009b',
      files: 43,
    });
  });
});
