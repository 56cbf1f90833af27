import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { forEachLine } from '../../../src/harness/corpus/index.js';
import { UsageError } from '../../../src/harness/errors.js';
import { checkOut, FolderWriter, writeFileAtomic, writeWhole } from '../../../src/harness/output/index.js';
import { LineFile } from '../../../src/harness/output/whole-folder.js';
import { tempDir } from '../../helpers/temp.js';

const tmp = tempDir('folder');
let fresh = 0;
/** A new empty parent folder, so a test can list every sibling its output left behind. */
const parent = () => {
  const dir = path.join(tmp, `p${fresh++}`);
  fs.mkdirSync(dir);
  return dir;
};
const usageError = (fn: () => void): UsageError => {
  try {
    fn();
  } catch (e) {
    if (e instanceof UsageError) return e;
    throw e;
  }
  throw new Error('no UsageError thrown');
};

/** The pid of a process that has ended: what a killed run leaves in its leftovers' names. */
const deadPid = (): number => {
  const r = spawnSync(process.execPath, ['-e', '0']);
  return r.pid as number;
};

describe('leftovers of killed runs', () => {
  it('a partial folder whose owner is gone is removed by the next run into the same place', () => {
    const dir = parent();
    const out = path.join(dir, 'run');
    fs.mkdirSync(`${out}.partial`);
    fs.writeFileSync(`${out}.partial/.owner`, String(deadPid()));
    fs.writeFileSync(`${out}.partial/rows.jsonl`, '{"half":');
    fs.mkdirSync(`${out}.partial-${deadPid()}`);
    const w = new FolderWriter(out);
    expect(fs.readdirSync(w.partial)).toEqual(['.owner']);
    expect(fs.readdirSync(dir)).toEqual(['run.partial']);
    w.commit();
    expect(fs.readdirSync(dir)).toEqual(['run']);
    expect(fs.readdirSync(out)).toEqual([]);
  });

  it('a partial folder whose owner still runs is another run at work: a usage error, and it is left alone', () => {
    const out = path.join(parent(), 'run');
    fs.mkdirSync(`${out}.partial`);
    fs.writeFileSync(`${out}.partial/.owner`, String(process.ppid));
    fs.writeFileSync(`${out}.partial/rows.jsonl`, 'x\n');
    expect(usageError(() => new FolderWriter(out)).message).toMatch(
      new RegExp(`being written by another ctxbench \\(pid ${process.ppid}\\)`),
    );
    expect(fs.readFileSync(`${out}.partial/rows.jsonl`, 'utf8')).toBe('x\n');
  });

  it('release() leaves the partial folder owned by nobody, for --resume; the next run without it starts afresh', () => {
    const out = path.join(parent(), 'run');
    const w = new FolderWriter(out);
    w.write('rows.jsonl', 'kept\n');
    w.release();
    expect(fs.readdirSync(w.partial)).toEqual(['rows.jsonl']);
    const resumed = new FolderWriter(out, true);
    expect(fs.readFileSync(path.join(resumed.partial, 'rows.jsonl'), 'utf8')).toBe('kept\n');
    resumed.release();
    const fresh = new FolderWriter(out);
    expect(fs.readdirSync(fresh.partial)).toEqual(['.owner']);
  });

  it("writeFileAtomic removes a killed write's temporary file, never a running one's", () => {
    const dir = parent();
    const file = path.join(dir, 'out.json');
    const dead = `${file}.${deadPid()}.tmp`;
    const running = `${file}.${process.ppid}.tmp`;
    const other = path.join(dir, 'other.json.1.tmp');
    for (const f of [dead, running, other]) fs.writeFileSync(f, 'half');
    writeFileAtomic(file, 'whole');
    expect(fs.readdirSync(dir).sort()).toEqual(
      ['other.json.1.tmp', 'out.json', path.basename(running)].sort(),
    );
    expect(fs.readFileSync(file, 'utf8')).toBe('whole');
  });
});

describe('FolderWriter', () => {
  it('writes into a partial sibling; only commit() moves it into place', () => {
    const dir = parent();
    const out = path.join(dir, 'run');
    const w = new FolderWriter(out);
    w.write('a.txt', 'A');
    w.write('sub/b.txt', 'B');
    expect(fs.existsSync(out)).toBe(false);
    expect(path.dirname(w.partial)).toBe(dir);
    expect(path.basename(w.partial)).toBe('run.partial');
    expect(fs.readFileSync(path.join(w.partial, 'sub/b.txt'), 'utf8')).toBe('B');
    w.commit();
    expect(fs.readdirSync(dir)).toEqual(['run']);
    expect(fs.readFileSync(path.join(out, 'a.txt'), 'utf8')).toBe('A');
    expect(fs.readFileSync(path.join(out, 'sub/b.txt'), 'utf8')).toBe('B');
  });

  it('commit() replaces an existing folder whole: no old file survives', () => {
    const out = path.join(parent(), 'run');
    fs.mkdirSync(out);
    fs.writeFileSync(path.join(out, 'old.txt'), 'old');
    const w = new FolderWriter(out);
    w.write('new.txt', 'new');
    expect(fs.readdirSync(out)).toEqual(['old.txt']);
    w.commit();
    expect(fs.readdirSync(out)).toEqual(['new.txt']);
  });

  it('abort() leaves nothing behind', () => {
    const dir = parent();
    const w = new FolderWriter(path.join(dir, 'run'));
    w.write('a.txt', 'A');
    w.lines('b.jsonl').close();
    w.abort();
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe('writeWhole', () => {
  it('commits what fill wrote', () => {
    const out = path.join(parent(), 'run');
    writeWhole(out, (w) => w.write('x', 'y'));
    expect(fs.readFileSync(path.join(out, 'x'), 'utf8')).toBe('y');
  });

  it('rethrows when fill throws and leaves nothing, an existing folder untouched', () => {
    const dir = parent();
    const boom = new Error('boom');
    const fill = (w: FolderWriter) => {
      w.write('half.txt', 'half');
      throw boom;
    };
    expect(() => writeWhole(path.join(dir, 'run'), fill)).toThrow(boom);
    expect(fs.readdirSync(dir)).toEqual([]);
    fs.mkdirSync(path.join(dir, 'kept'));
    fs.writeFileSync(path.join(dir, 'kept', 'old.txt'), 'old');
    expect(() => writeWhole(path.join(dir, 'kept'), fill)).toThrow(boom);
    expect(fs.readdirSync(dir)).toEqual(['kept']);
    expect(fs.readdirSync(path.join(dir, 'kept'))).toEqual(['old.txt']);
  });
});

describe('LineFile and forEachLine', () => {
  const MiB = 1 << 20;
  const read = (file: string) => {
    const lines: string[] = [];
    forEachLine(file, (l) => lines.push(l));
    return lines;
  };

  it('round-trip many lines, empty ones and ones longer than the 1 MiB read chunk', () => {
    const file = path.join(parent(), 'lines.jsonl');
    const lines = [
      ...Array.from({ length: 5000 }, (_, k) => `{"k":${k},"pad":"${'x'.repeat(k % 300)}"}`),
      '',
      'y'.repeat(MiB + 17),
      'short',
      'z'.repeat(3 * MiB - 1),
      '',
      'last',
    ];
    const f = new LineFile(file);
    for (const l of lines) f.add(l);
    f.close();
    expect(fs.statSync(file).size).toBe(lines.reduce((n, l) => n + l.length + 1, 0));
    expect(read(file)).toEqual(lines);
  });

  it('reads a final line without a newline, and nothing from an empty file', () => {
    const dir = parent();
    fs.writeFileSync(path.join(dir, 'a'), `one\n${'w'.repeat(MiB)}\nlast`);
    expect(read(path.join(dir, 'a'))).toEqual(['one', 'w'.repeat(MiB), 'last']);
    fs.writeFileSync(path.join(dir, 'b'), '');
    expect(read(path.join(dir, 'b'))).toEqual([]);
  });

  // Chunks are 1 MiB of bytes: decoded one at a time, a character split across two would become
  // two U+FFFD, and `merge` would corrupt a compilations.jsonl holding non-ASCII content.
  it('keeps a multi-byte character that straddles a chunk boundary', () => {
    const file = path.join(parent(), 'utf8.jsonl');
    // 'a' then two-byte characters: byte 1 MiB falls in the middle of one of them
    const line = `a${'é'.repeat(MiB / 2 + 10)}`;
    fs.writeFileSync(file, `${line}\n`);
    expect(read(file)).toEqual([line]);
  });
});

describe('checkOut', () => {
  const MARKS = ['rows.jsonl', 'manifest.json'];

  it('passes a missing folder and an empty one, with or without force', () => {
    const dir = parent();
    expect(() => checkOut(path.join(dir, 'missing'), false, MARKS)).not.toThrow();
    fs.mkdirSync(path.join(dir, 'empty'));
    expect(() => checkOut(path.join(dir, 'empty'), false, MARKS)).not.toThrow();
  });

  it('refuses a non-empty folder without force, and one without any mark even with force', () => {
    const out = path.join(parent(), 'theirs');
    fs.mkdirSync(out);
    fs.writeFileSync(path.join(out, 'notes.txt'), 'mine');
    expect(usageError(() => checkOut(out, false, MARKS)).message).toContain(out);
    const e = usageError(() => checkOut(out, true, MARKS));
    expect(e.message).toContain('not ctxbench output');
    expect(e.message).toContain(out);
    expect(fs.readdirSync(out)).toEqual(['notes.txt']);
  });

  it('passes a non-empty folder with force when it holds any one mark', () => {
    for (const mark of MARKS) {
      const out = path.join(parent(), 'ours');
      fs.mkdirSync(out);
      fs.writeFileSync(path.join(out, mark), '');
      fs.writeFileSync(path.join(out, 'other.txt'), '');
      expect(() => checkOut(out, true, MARKS)).not.toThrow();
      expect(usageError(() => checkOut(out, false, MARKS)).message).toContain('--force');
    }
  });

  it('refuses a file where a folder should be, even with force', () => {
    const file = path.join(parent(), 'rows.jsonl');
    fs.writeFileSync(file, '');
    expect(usageError(() => checkOut(file, true, MARKS)).message).toContain('not a folder');
  });
});

describe('writeFileAtomic', () => {
  it('writes the file, creating its folder, and leaves no temporary sibling', () => {
    const dir = parent();
    const file = path.join(dir, 'deep', 'er', 'f.json');
    writeFileAtomic(file, 'first');
    writeFileAtomic(file, 'second');
    expect(fs.readFileSync(file, 'utf8')).toBe('second');
    expect(fs.readdirSync(path.dirname(file))).toEqual(['f.json']);
  });
});
