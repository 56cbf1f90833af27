/**
 * `validate <run-folder>` on a manifest written to hurt it (issue 47): a corpus or ledger folder
 * whose files vanish while they are read (/proc), that holds FIFOs, sockets, links to FIFOs or
 * devices, a file too large or one that cannot be read, or a folder that is not one. Each ends by
 * itself with exit 2 and one line naming the manifest, the field and what is wrong, nothing
 * written. The manifests carry the digest of the folder's regular files, which the digest before
 * issue 47 matched, so that what the folder holds is reached, not just a digest that differs.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_TEXT_BYTES } from '../../src/harness/corpus/index.js';
import {
  bin,
  CASE,
  fifo,
  filesOf,
  type HostileRuns,
  hostileRuns,
  type Ran,
  refusedNaming,
} from '../helpers/hostile-folders.js';
import { tempDir } from '../helpers/temp.js';

const tmp = tempDir('validate-hostile');
let runs: HostileRuns;

beforeAll(() => {
  runs = hostileRuns(tmp);
  expect(bin(tmp, 'validate', runs.run)).toEqual({ status: 0, ended: true, stdout: 'valid\n', stderr: '' });
}, 600_000);

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `validate` of `run`: ended by itself, exit 2, one line naming its manifest and `what`; the run as it was. */
function refused(run: string, what: RegExp): Ran {
  const before = filesOf(run);
  const r = bin(tmp, 'validate', run);
  refusedNaming(r, path.join(run, 'manifest.json'), what);
  expect(filesOf(run)).toEqual(before);
  return r;
}

/** `<field> <folder>: "<entry>" ...`: the line names the field, the folder and the entry. */
const entry = (field: string, name: string, is: string) =>
  new RegExp(`${escaped(field)} \\S+: ${escaped(JSON.stringify(name))} ${is}`);

describe('a corpus.dir whose files vanish or change while they are read', () => {
  it.each(['/proc/self/fdinfo', '/proc/self/fd', '/proc/self/task'])('%s: exit 2, one line', (dir) => {
    // A line of its own whatever the folder holds at the time: a file gone, a link to a pipe, a
    // file larger than its size, or no file at all, which is a digest that differs.
    refused(
      runs.hostile(`proc-${path.basename(dir)}`, { corpusDir: dir }),
      new RegExp(`corpus\\.dir ${dir}\\b`),
    );
  });

  it('a file larger than its size says (a link to /proc/self/status): changed while it was read', () => {
    const run = runs.hostile('grows', {
      breakCorpus: (d) => fs.symlinkSync('/proc/self/status', path.join(d, 'status.txt')),
    });
    refused(run, entry('corpus.dir', 'status.txt', 'changed while it was read'));
  });

  it('a file that cannot be read (a link to /proc/self/mem, whose first page is unmapped)', () => {
    const run = runs.hostile('eio', {
      breakCorpus: (d) => fs.symlinkSync('/proc/self/mem', path.join(d, 'mem')),
    });
    refused(run, entry('corpus.dir', 'mem', 'cannot be read \\(EIO\\)'));
  });
});

describe('a corpus folder holding what is not a file', () => {
  const outside = () => fs.mkdtempSync(path.join(tmp, 'outside-'));
  it.each([
    ['a FIFO', `${CASE}.request.json`, (f: string) => fifo(f), 'is a FIFO'],
    [
      'a link to a FIFO',
      'compiler-policy-v1.json',
      (f: string) => fs.symlinkSync(fifo(path.join(outside(), 'fifo')), f),
      'is a link to a FIFO',
    ],
    [
      'a link to /dev/zero',
      `${CASE}.candidates.json`,
      (f: string) => fs.symlinkSync('/dev/zero', f),
      'is a link to a device',
    ],
    ['a blob index that is a FIFO', 'blobs/index.jsonl', (f: string) => fifo(f), 'is a FIFO'],
    [
      'a blob index linked to /dev/zero',
      'blobs/index.jsonl',
      (f: string) => fs.symlinkSync('/dev/zero', f),
      'is a link to a device',
    ],
    [
      'a link that leads nowhere',
      'notes.txt',
      (f: string) => fs.symlinkSync('/no/such/file', f),
      'is a link that leads nowhere',
    ],
  ])('%s (%s): it never opens it, exit 2', (name, file, make, is) => {
    const run = runs.hostile(`not-a-file-${name.replace(/\W+/g, '-')}`, {
      breakCorpus: (d) => {
        const f = path.join(d, file);
        fs.mkdirSync(path.dirname(f), { recursive: true });
        fs.rmSync(f, { force: true });
        make(f);
      },
    });
    refused(run, entry('corpus.dir', file, is));
  });

  it("a blob pack that is a FIFO: a case's text is never waited on, its file and record named", () => {
    const run = runs.hostile('pack-fifo', {
      breakCorpus: (d) => {
        // The first candidate's text moved into blobs/, as ingest writes it, its pack a FIFO.
        const file = path.join(d, `${CASE}.candidates.json`);
        const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
        const { content, ...rest } = doc.candidates[0];
        const sha256 = createHash('sha256').update(content).digest('hex');
        doc.candidates[0] = { ...rest, content_sha256: sha256 };
        fs.writeFileSync(file, JSON.stringify(doc));
        fs.mkdirSync(path.join(d, 'blobs'));
        const place = { sha256, pack: 'pack-001.txt', offset: 0, bytes: Buffer.byteLength(content) };
        fs.writeFileSync(path.join(d, 'blobs/index.jsonl'), `${JSON.stringify(place)}\n`);
        fifo(path.join(d, 'blobs/pack-001.txt'));
      },
    });
    const r = bin(tmp, 'validate', run);
    expect([r.ended, r.status, r.stdout]).toEqual([true, 2, '']);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(
      new RegExp(
        `^ctxbench: \\S+/${CASE}\\.candidates\\.json: candidates\\[0\\].*blobs/pack-001\\.txt.*: the pack is not a file`,
      ),
    );
  });

  it('a socket', async () => {
    let dir = '';
    const run = runs.hostile('socket', { breakCorpus: (d) => (dir = d) });
    const server = net.createServer();
    await new Promise<void>((done) => server.listen(path.join(dir, 'zz.sock'), done));
    try {
      refused(run, entry('corpus.dir', 'zz.sock', 'is a socket'));
    } finally {
      server.close();
    }
  });

  it('a name that is not UTF-8', () => {
    const run = runs.hostile('not-utf8', {
      keepDigests: true,
      breakCorpus: (d) =>
        fs.writeFileSync(Buffer.concat([Buffer.from(`${d}/notes-`), Buffer.from([0xff])]), 'x'),
    });
    refused(run, /corpus\.dir \S+: "notes-\ufffd" has a name that is not UTF-8/);
  });
});

describe('a corpus folder too large to read', () => {
  /** A file of `bytes` that takes no room: nothing of it is read before it is refused. */
  const sparse = (file: string, bytes: number) => {
    fs.writeFileSync(file, '');
    fs.truncateSync(file, bytes);
    return file;
  };

  it('a file over the input limit', () => {
    const run = runs.hostile('too-large', {
      keepDigests: true,
      breakCorpus: (d) => sparse(path.join(d, 'big.bin'), MAX_TEXT_BYTES + 1),
    });
    refused(
      run,
      entry('corpus.dir', 'big.bin', `is ${(MAX_TEXT_BYTES + 1).toLocaleString('en-US')} bytes, over the`),
    );
  });

  it('files within it that hold more than 4 GiB together (links to one file)', () => {
    const big = sparse(path.join(tmp, 'big.bin'), MAX_TEXT_BYTES);
    const run = runs.hostile('too-much', {
      keepDigests: true,
      breakCorpus: (d) => {
        for (let k = 0; k < 9; k++) fs.symlinkSync(big, path.join(d, `big-${k}.bin`));
      },
    });
    refused(run, /corpus\.dir \S+: its files hold more than 4,294,967,296 bytes/);
  });
});

describe('a folder that cannot be listed or is not a folder', () => {
  /**
   * A folder this process cannot list: mode 000, or for root (which lists any) /proc/1/map_files,
   * where the kernel refuses it.
   */
  const unlistable = (() => {
    const dir = path.join(tmp, 'unlistable');
    fs.mkdirSync(dir);
    fs.chmodSync(dir, 0);
    for (const d of [dir, '/proc/1/map_files'])
      try {
        fs.readdirSync(d);
      } catch {
        return d;
      }
    return null;
  })();
  afterAll(() => fs.chmodSync(path.join(tmp, 'unlistable'), 0o755));

  it.skipIf(unlistable === null)('a corpus.dir that cannot be listed', () => {
    refused(
      runs.hostile('unlistable', { corpusDir: unlistable as string }),
      /corpus\.dir \S+: cannot be listed \(E[A-Z]+\)/,
    );
  });

  it.skipIf(process.getuid?.() === 0)('a file that cannot be opened (mode 000; root opens any)', () => {
    const run = runs.hostile('unreadable', {
      breakCorpus: (d) => fs.chmodSync(path.join(d, `${CASE}.request.json`), 0),
    });
    refused(run, entry('corpus.dir', `${CASE}.request.json`, 'cannot be opened \\(EACCES\\)'));
  });

  it.each([
    ['a file', () => path.join(runs.corpus, 'manifest.json')],
    ['a FIFO', () => fifo(path.join(tmp, 'corpus-fifo'))],
    ['/dev/zero', () => '/dev/zero'],
  ])('a corpus.dir that is %s: exit 2, it is not a folder', (name, dir) => {
    const run = runs.hostile(`corpus-is-${name.replace(/\W+/g, '-')}`, { corpusDir: dir() });
    refused(run, /corpus\.dir \S+ is not a folder/);
  });
});

describe("the corpus's ledger, which validate scores the run with again", () => {
  const outside = () => fs.mkdtempSync(path.join(tmp, 'outside-'));
  const truth = `${CASE}.truth.json`;
  it.each([
    ['a FIFO', (f: string) => fifo(f), 'is a FIFO'],
    [
      'a link to a FIFO',
      (f: string) => fs.symlinkSync(fifo(path.join(outside(), 'fifo')), f),
      'is a link to a FIFO',
    ],
    ['a link to /dev/zero', (f: string) => fs.symlinkSync('/dev/zero', f), 'is a link to a device'],
  ])('a truth file that is %s: exit 2, with or without a digest to compare', (name, make, is) => {
    for (const recorded of [true, false]) {
      const run = runs.hostile(`ledger-${name.replace(/\W+/g, '-')}-${recorded}`, {
        breakCorpus: (d) => {
          fs.rmSync(path.join(d, 'ledger', truth));
          make(path.join(d, 'ledger', truth));
        },
        // A manifest without a ledger has no digest to compare: the folder is read all the same.
        editManifest: (m) => {
          if (!recorded) delete m.ledger;
        },
      });
      refused(run, entry('ledger.dir', truth, is));
    }
  });

  it('a ledger that is a link to /proc/self/fdinfo', () => {
    const run = runs.hostile('ledger-proc', {
      breakCorpus: (d) => {
        fs.rmSync(path.join(d, 'ledger'), { recursive: true });
        fs.symlinkSync('/proc/self/fdinfo', path.join(d, 'ledger'));
      },
    });
    refused(run, /ledger\.dir \S+\/ledger\b/);
  });

  it("the manifest's ledger.dir is not read (the corpus's own ledger is): a FIFO or /proc there, valid", () => {
    for (const [k, dir] of [fifo(path.join(tmp, 'ledger-fifo')), '/proc/self/fdinfo'].entries()) {
      const run = runs.hostile(`ledger-dir-${k}`, {
        editManifest: (m) => {
          (m.ledger as Record<string, unknown>).dir = dir;
        },
      });
      expect(bin(tmp, 'validate', run)).toEqual({ status: 0, ended: true, stdout: 'valid\n', stderr: '' });
    }
  });
});
