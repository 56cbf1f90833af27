/**
 * The digest of a corpus or ledger folder (issue 47): for a folder of regular files, links to
 * them and subfolders, the value it always had (computed here as it was before, with readdir and
 * whole reads), so committed run folders still validate; past its limits, one problem naming the
 * limit, before any file is read. The hostile folders themselves are test/cli/validate-hostile*.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/harness/errors.js';
import { corpusDigest, DIGEST_LIMITS, folderDigest } from '../../../src/harness/runfolder/digest.js';
import { ROOT } from '../../helpers/corpus.js';
import { tempDir } from '../../helpers/temp.js';

const tmp = tempDir('digest');
const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** The digest as it was taken before issue 47: every entry followed, the regular files read whole. */
function digestBefore(dir: string): string {
  const files = fs
    .readdirSync(dir)
    .filter((f) => fs.statSync(path.join(dir, f)).isFile())
    .sort();
  if (fs.existsSync(path.join(dir, 'blobs/index.jsonl'))) files.push('blobs/index.jsonl');
  return sha256(files.map((f) => `${f} ${sha256(fs.readFileSync(path.join(dir, f)))}\n`).join(''));
}

/** A folder holding `files` (name to text), made fresh. */
function folder(name: string, files: Readonly<Record<string, string>>): string {
  const dir = path.join(tmp, name);
  for (const [f, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.writeFileSync(path.join(dir, f), text);
  }
  return dir;
}

describe('an ordinary folder keeps the digest it had', () => {
  it.each(['corpus/compiler-v1', 'corpus/compiler-v2', 'ledger/compiler-v1'])('%s', (dir) => {
    const full = path.join(ROOT, dir);
    expect(corpusDigest(full)).toBe(digestBefore(full));
  });

  it('a blob index, a link to a file, a link to a folder, a subfolder, names sorted by code unit', () => {
    const dir = folder('ordinary', {
      'b.json': '{}',
      'B.json': '[]',
      'é.json': '"é"',
      'blobs/index.jsonl': '{"sha256": "0"}\n',
      'blobs/pack-001.txt': 'packed',
      'sub/inside.json': '1',
    });
    fs.writeFileSync(path.join(tmp, 'outside.txt'), 'linked');
    fs.symlinkSync(path.join(tmp, 'outside.txt'), path.join(dir, 'linked.txt'));
    fs.symlinkSync(path.join(dir, 'sub'), path.join(dir, 'linked-folder'));
    const digest = corpusDigest(dir);
    expect(digest).toBe(digestBefore(dir));
    // The link is read as the file it leads to, and the folders are left out: the same digest.
    fs.rmSync(path.join(dir, 'sub'), { recursive: true });
    fs.rmSync(path.join(dir, 'linked-folder'));
    fs.rmSync(path.join(dir, 'linked.txt'));
    fs.copyFileSync(path.join(tmp, 'outside.txt'), path.join(dir, 'linked.txt'));
    expect(corpusDigest(dir)).toBe(digest);
  });

  it('an empty file, and one larger than a chunk read', () => {
    const dir = folder('sizes', { empty: '', large: 'x'.repeat((1 << 20) * 3 + 7) });
    expect(corpusDigest(dir)).toBe(digestBefore(dir));
  });
});

describe('the limits, each met and then passed', () => {
  const limits = { ...DIGEST_LIMITS };

  it('entries: folders count too', () => {
    const dir = folder('entries', { a: '', b: '', 'c/d': '' });
    expect(typeof folderDigest(dir, { ...limits, entries: 3 })).toBe('string');
    expect(folderDigest(dir, { ...limits, entries: 2 })).toEqual({
      problem: 'holds more than 2 entries, more than a corpus or a ledger',
    });
  });

  it('bytes of one file, and of all of them (a file named twice counts twice)', () => {
    const dir = folder('bytes', { a: '12345', b: '123' });
    fs.linkSync(path.join(dir, 'a'), path.join(dir, 'c'));
    expect(typeof folderDigest(dir, { ...limits, fileBytes: 5, bytes: 13 })).toBe('string');
    expect(folderDigest(dir, { ...limits, fileBytes: 4 })).toEqual({
      problem: '"a" is 5 bytes, over the 4 one input file may hold',
    });
    expect(folderDigest(dir, { ...limits, bytes: 12 })).toEqual({
      problem: 'its files hold more than 12 bytes, more than a digest reads',
    });
  });

  it('what the defaults are: a million entries, one input file each, 4 GiB in all', () => {
    expect(DIGEST_LIMITS).toEqual({ entries: 1_000_000, fileBytes: 2 ** 29 - 24, bytes: 2 ** 32 });
  });
});

describe('the line a refusal prints', () => {
  const dir = folder('with-fifo', { 'a.json': '{}' });
  spawnSync('mkfifo', [path.join(dir, 'f')]);
  const thrown = (f: () => unknown): string => {
    try {
      f();
    } catch (e) {
      if (e instanceof InputError) return e.line;
      throw e;
    }
    throw new Error('nothing thrown');
  };

  it('names the folder, or the file and field that named it and why it is read', () => {
    expect(thrown(() => corpusDigest(dir))).toBe(`${dir}: "f" is a FIFO`);
    expect(
      thrown(() =>
        corpusDigest(dir, { file: 'run/manifest.json', field: 'corpus.dir', why: 'to re-derive' }),
      ),
    ).toBe(`run/manifest.json: corpus.dir ${dir}: "f" is a FIFO: to re-derive`);
  });
});
