/**
 * A run folder's own files and the other files the run-folder commands read or write, put there to
 * hurt them (issue 47): a report file linked to /dev/zero or made a FIFO, a compilations.jsonl that
 * is one sparse line of gigabytes, a findings template that never ends, a killed run's leftovers
 * (`run.json`, `.owner`, its lines) made FIFOs or links to someone's file, an `--out` folder that
 * is a link to a file. Each command ends by itself: exit 2 and one line naming the file, or done
 * without writing through the link (the victim file keeps its bytes).
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bin, fifo, type HostileRuns, hostileRuns, refusedNaming } from '../helpers/hostile-folders.js';
import { tempDir } from '../helpers/temp.js';
import { share } from '../helpers/tier.js';

const tmp = tempDir('runfolder-hostile-files');
let runs: HostileRuns;

beforeAll(() => {
  runs = hostileRuns(tmp);
}, 600_000);

let made = 0;
/** A copy of the run with `file` replaced by what `make` puts there. */
function brokenRun(file: string, make: (at: string) => void): string {
  const run = path.join(tmp, `run-${++made}`);
  fs.cpSync(runs.run, run, { recursive: true });
  fs.rmSync(path.join(run, file));
  make(path.join(run, file));
  return run;
}

/** A file outside the run holding bytes no command may change. */
function victim(): { file: string; kept: () => string } {
  const file = path.join(tmp, `victim-${++made}`);
  fs.writeFileSync(file, 'victim bytes\n');
  return { file, kept: () => fs.readFileSync(file, 'utf8') };
}

// Each pair of variants below shares one guarded reader: the fast tier runs one of each pair, a
// FIFO in one place and a device in another, and test:full runs both.
/** A FIFO, and a link to a device: two things at a file's name that are no file. */
const NOT_FILES = [
  ['a FIFO', (f: string) => fifo(f), 'a FIFO'],
  ['a link to /dev/zero', (f: string) => fs.symlinkSync('/dev/zero', f), 'a device'],
] as const;

describe('validate reads the report files it compares bounded', () => {
  it.each(
    share(
      [
        ['summary.json', 'a link to /dev/zero', (f: string) => fs.symlinkSync('/dev/zero', f), 'a device'],
        ['report.html', 'a FIFO', (f: string) => fifo(f), 'a FIFO'],
      ] as const,
      0,
      2,
    ),
  )('%s %s: exit 2, one line naming it', (name, _, make, said) => {
    const run = brokenRun(name, make);
    refusedNaming(bin(tmp, 'validate', run), path.join(run, name), `cannot read file: it is ${said}`);
  });
});

describe('a compilations.jsonl that is one sparse line of 4 GiB', () => {
  it('report stops at the line no string holds: exit 2, one line naming the file and line', () => {
    const run = brokenRun('compilations.jsonl', (f) => {
      fs.writeFileSync(f, '');
      fs.truncateSync(f, 2 ** 32);
    });
    const r = bin(tmp, 'report', run, '--out', path.join(tmp, `reports-${made}`));
    refusedNaming(r, path.join(run, 'compilations.jsonl'), /: line 1: longer than \d+ bytes/);
  }, 60_000);
});

describe('findings --template that is no file', () => {
  it.each(share(NOT_FILES, 0, 2))('%s: exit 2, one line naming the template', (_, make, said) => {
    const template = path.join(tmp, `template-${++made}.md`);
    make(template);
    refusedNaming(bin(tmp, 'findings', runs.run, '--template', template), template, `it is ${said}`);
  });
});

describe('report --out that is a link to a file', () => {
  it('is refused before anything is written: exit 2, one line, the victim as it was', () => {
    const v = victim();
    const out = path.join(tmp, `out-link-${made}`);
    fs.symlinkSync(v.file, out);
    const r = bin(tmp, 'report', runs.run, '--out', out);
    expect([r.ended, r.status, r.stdout]).toEqual([true, 2, '']);
    expect(r.stderr).toMatch(
      new RegExp(`^ctxbench: refusing --out \\S+: ${out} is not a folder [^\\n]*\\n$`),
    );
    expect(v.kept()).toBe('victim bytes\n');
  });
});

describe("report in place over a run folder's report files that are links", () => {
  it('replaces each link with its own file: the victims keep their bytes', () => {
    const [soft, hard] = [victim(), victim()];
    const run = brokenRun('report.md', (f) => fs.symlinkSync(soft.file, f));
    fs.rmSync(path.join(run, 'rows.csv'));
    fs.linkSync(hard.file, path.join(run, 'rows.csv'));
    const r = bin(tmp, 'report', run);
    expect([r.ended, r.status, r.stderr]).toEqual([true, 0, '']);
    expect([soft.kept(), hard.kept()]).toEqual(['victim bytes\n', 'victim bytes\n']);
    expect(fs.lstatSync(path.join(run, 'report.md')).isFile()).toBe(true);
    expect(fs.statSync(path.join(run, 'rows.csv')).nlink).toBe(1);
  });
});

describe("a killed run's leftovers in <out>.partial", () => {
  const study = (out: string, ...more: string[]) =>
    bin(tmp, 'study', '--corpus', runs.corpus, '--strategies', 'dump', '--out', out, '--quiet', ...more);

  it.each(share(NOT_FILES, 1, 2))(
    'run.json %s: study --resume ends with exit 2 and one line naming it',
    (_, make, said) => {
      const out = path.join(tmp, `resume-${++made}`);
      fs.mkdirSync(`${out}.partial`);
      make(path.join(`${out}.partial`, 'run.json'));
      refusedNaming(study(out, '--resume'), path.join(`${out}.partial`, 'run.json'), `it is ${said}`);
    },
  );

  it('.owner a link to a file: study --resume replaces the link, the victim keeps its bytes', () => {
    const v = victim();
    const out = path.join(tmp, `owner-${made}`);
    fs.mkdirSync(`${out}.partial`);
    fs.symlinkSync(v.file, path.join(`${out}.partial`, '.owner'));
    const r = study(out, '--resume');
    // Nothing to keep (no run.json): the run starts afresh, and says so.
    expect([r.ended, r.status]).toEqual([true, 0]);
    expect(r.stderr).toMatch(/^ctxbench: resuming \S+: 0 of \d+ compilations kept\n$/);
    expect(v.kept()).toBe('victim bytes\n');
  });

  it('rows.jsonl a link to a file: study --resume writes no line through it (exit 2, one line)', () => {
    const v = victim();
    const out = path.join(tmp, `lines-${made}`);
    fs.mkdirSync(`${out}.partial`);
    fs.symlinkSync(v.file, path.join(`${out}.partial`, 'rows.jsonl'));
    refusedNaming(study(out, '--resume'), path.join(`${out}.partial`, 'rows.jsonl'), 'it is a link');
    expect(v.kept()).toBe('victim bytes\n');
  });
});

describe('ingest --swe-bench records that are a FIFO', () => {
  it('is refused at once, never waited on in open: exit 2, it is a FIFO', () => {
    const dir = path.join(tmp, `swe-${++made}`);
    fs.mkdirSync(path.join(dir, 'repos'), { recursive: true });
    const records = fifo(path.join(dir, 'records.jsonl'));
    const r = bin(
      tmp,
      'ingest',
      '--swe-bench',
      records,
      '--repos',
      path.join(dir, 'repos'),
      '--out',
      path.join(dir, 'out'),
    );
    refusedNaming(r, records, 'cannot read file: it is a FIFO, not a regular file');
  });
});
