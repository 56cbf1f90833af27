/**
 * A corpus folder's pools read straight from its files, without the loader under test: each
 * `content_sha256` resolved by reading its blob (`blobs/<first two>/<digest>`) and checking the
 * digest here.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The text of a blob, its digest checked. */
export function blobText(dir: string, digest: string): string {
  const bytes = fs.readFileSync(path.join(dir, 'blobs', digest.slice(0, 2), digest));
  const actual = createHash('sha256').update(bytes).digest('hex');
  if (actual !== digest) throw new Error(`blob ${digest} hashes to ${actual}`);
  return bytes.toString('utf8');
}

/** A case's candidate records, every content inline. */
export function poolOf<T = Record<string, unknown>>(dir: string, kase: string): T[] {
  const doc = JSON.parse(fs.readFileSync(path.join(dir, `${kase}.candidates.json`), 'utf8')) as {
    candidates: Record<string, unknown>[];
  };
  return doc.candidates.map((c) => {
    if (typeof c.content_sha256 !== 'string') return c as T;
    const { content_sha256: digest, ...rest } = c;
    return { ...rest, content: blobText(dir, digest as string) } as T;
  });
}

/** Every blob of a corpus folder, by digest. */
export function blobFiles(dir: string): string[] {
  const root = path.join(dir, 'blobs');
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root)
    .flatMap((fan) => fs.readdirSync(path.join(root, fan)))
    .sort();
}
