/**
 * A corpus folder's pools read straight from its files, without the loader under test: each
 * `content_sha256` resolved through `blobs/index.jsonl` and its pack, and the digest checked here.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface Place {
  readonly sha256: string;
  readonly pack: string;
  readonly offset: number;
  readonly bytes: number;
}

/** The lines of a corpus's blob index, in order; none when it has no blobs. */
export function blobIndex(dir: string): Place[] {
  const file = path.join(dir, 'blobs', 'index.jsonl');
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Place);
}

/** The text of a blob, its digest checked. */
export function blobText(dir: string, digest: string): string {
  const place = blobIndex(dir).find((p) => p.sha256 === digest);
  if (place === undefined) throw new Error(`no blob ${digest}`);
  const pack = fs.readFileSync(path.join(dir, 'blobs', place.pack));
  const bytes = pack.subarray(place.offset, place.offset + place.bytes);
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

/** Every blob of a corpus folder, by digest, sorted. */
export const blobFiles = (dir: string): string[] =>
  blobIndex(dir)
    .map((p) => p.sha256)
    .sort();

/** Every file under `dir`, by relative path, with its bytes. */
export const folderBytes = (dir: string): Map<string, Buffer> => {
  const out = new Map<string, Buffer>();
  for (const f of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
    const full = path.join(dir, f);
    if (fs.statSync(full).isFile()) out.set(f, fs.readFileSync(full));
  }
  return out;
};
