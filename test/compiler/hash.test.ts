import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bundleHash } from '../../src/compiler/index.js';

const sha = (s: string) => createHash('sha256').update(Buffer.from(s, 'utf8')).digest('hex');

describe('the bundle content hash', () => {
  it('is SHA-256 of id NUL content NUL per item', () => {
    expect(bundleHash([])).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(bundleHash([{ id: 'a', content: 'x y' }])).toBe(sha('a\0x y\0'));
    expect(bundleHash([{ id: 'é', content: 'ü' }])).toBe(sha('é\0ü\0'));
  });

  it('depends on order, and NULs keep ids and contents apart', () => {
    const a = { id: 'a', content: '1' };
    const b = { id: 'b', content: '2' };
    expect(bundleHash([a, b])).not.toBe(bundleHash([b, a]));
    expect(bundleHash([{ id: 'ab', content: 'c' }])).not.toBe(bundleHash([{ id: 'a', content: 'bc' }]));
  });
});
