/**
 * The other readers of a run folder on a manifest written to hurt them (issue 47): `report`,
 * `compare --html` and `findings` read the corpus the manifest names (the first two only for a
 * compilation line that holds its texts by reference, which anyone may write), and `survey` reads
 * its budget manifest for a label. A corpus.dir in /proc, one holding a FIFO or a link to
 * /dev/zero, or one that is not a folder: each ends by itself, with exit 2 and one line naming
 * the manifest and corpus.dir, nothing written; or, where the corpus is not needed, as it would.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
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
import { share } from '../helpers/tier.js';

const tmp = tempDir('validate-hostile-readers');
let runs: HostileRuns;

beforeAll(() => {
  runs = hostileRuns(tmp);
}, 600_000);

/** Refused with one line naming the run's manifest and `what`. */
const refused = (r: Ran, run: string, what: RegExp): void =>
  refusedNaming(r, path.join(run, 'manifest.json'), what);

/** The hostile corpora, each with what the line says of it. */
const HOSTILE: readonly (readonly [
  string,
  () => { corpusDir?: string; breakCorpus?: (d: string) => void },
  RegExp,
])[] = [
  ['/proc/self/fdinfo', () => ({ corpusDir: '/proc/self/fdinfo' }), /corpus\.dir \/proc\/self\/fdinfo\b/],
  [
    'a FIFO for a request',
    () => ({
      breakCorpus: (d) => {
        fs.rmSync(path.join(d, `${CASE}.request.json`));
        fifo(path.join(d, `${CASE}.request.json`));
      },
    }),
    new RegExp(`corpus\\.dir \\S+: "${CASE}\\.request\\.json" is a FIFO`),
  ],
  [
    'a link to /dev/zero for candidates',
    () => ({
      breakCorpus: (d) => {
        fs.rmSync(path.join(d, `${CASE}.candidates.json`));
        fs.symlinkSync('/dev/zero', path.join(d, `${CASE}.candidates.json`));
      },
    }),
    new RegExp(`corpus\\.dir \\S+: "${CASE}\\.candidates\\.json" is a link to a device`),
  ],
  [
    'a FIFO for the folder',
    () => ({ corpusDir: fifo(path.join(tmp, `corpus-fifo-${made}`)) }),
    /corpus\.dir \S+ is not a folder/,
  ],
];

let made = 0;
const hostile = (make: () => { corpusDir?: string; breakCorpus?: (d: string) => void }) =>
  runs.hostile(`hostile-${++made}`, { ...make(), byReference: true });

// In the fast tier the three readers share the hostile corpora out, each corpus read by one of them.
describe('report reads the corpus of a line by reference', () => {
  it.each(share(HOSTILE, 0, 3))('%s: exit 2, one line, the reports as they were', (_, make, what) => {
    const run = hostile(make);
    const before = filesOf(run);
    refused(bin(tmp, 'report', run), run, what);
    expect(filesOf(run)).toEqual(before);
  });
});

describe('compare --html reads the corpus of a line by reference', () => {
  it.each(share(HOSTILE, 1, 3))('%s: exit 2, one line, no page written', (_, make, what) => {
    const run = hostile(make);
    const page = path.join(tmp, `page-${made}.html`);
    refused(bin(tmp, 'compare', run, runs.run, '--html', page), run, what);
    expect(fs.existsSync(page)).toBe(false);
  });

  it('without --html, compare reads rows alone: done (exit 0), whatever the corpus', () => {
    const run = hostile(() => ({ corpusDir: '/proc/self/fdinfo' }));
    const r = bin(tmp, 'compare', run, runs.run);
    expect([r.ended, r.status, r.stderr]).toEqual([true, 0, '']);
  });
});

describe('findings reads the corpus for a purpose', () => {
  it.each(share(HOSTILE, 2, 3))('%s: exit 2, one line', (_, make, what) => {
    const run = hostile(make);
    const template = path.join(tmp, `template-${made}.md`);
    fs.writeFileSync(template, `{{purpose ${CASE}}}\n`);
    refused(bin(tmp, 'findings', run, '--template', template), run, what);
  });
});

describe("survey reads the corpus's budget manifest for a label", () => {
  it.each([
    ['a FIFO', (f: string) => fifo(f)],
    ['a link to /dev/zero', (f: string) => fs.symlinkSync('/dev/zero', f)],
  ])('that manifest %s is not one: the corpus is named by its folder, done', (_, make) => {
    const run = runs.hostile(`survey-${++made}`, {
      breakCorpus: (d) => {
        fs.rmSync(path.join(d, 'manifest.json'));
        make(path.join(d, 'manifest.json'));
      },
    });
    const r = bin(tmp, 'survey', run, runs.run);
    // Its one line of what it read, as for any two runs: the label fell back to the corpus's name.
    expect([r.ended, r.status, r.stderr]).toEqual([
      true,
      0,
      expect.stringMatching(/^survey: 2 runs, 6 rows in \d+ ms\n$/),
    ]);
  });
});

/**
 * A run folder's own files are anyone's too: `rows.jsonl`, `manifest.json` or `compilations.jsonl`
 * a FIFO that no one writes, or a link to `/dev/zero`, would hold every reader for ever. Each
 * reader ends by itself with exit 2 and one line naming the file and what it is.
 */
describe("a run folder's own files that are not files", () => {
  const FILES = ['rows.jsonl', 'manifest.json', 'compilations.jsonl'] as const;
  const KINDS = [
    ['a FIFO', (f: string) => fifo(f), 'a FIFO'],
    ['a link to /dev/zero', (f: string) => fs.symlinkSync('/dev/zero', f), 'a device'],
  ] as const;
  const COMMANDS: readonly (readonly [string, (run: string) => string[]])[] = [
    ['validate', (run) => ['validate', run]],
    ['report', (run) => ['report', run, '--out', path.join(tmp, `page-${made}.html`)]],
    ['compare', (run) => ['compare', run, runs.run, '--html', path.join(tmp, `cmp-${made}.html`)]],
  ];
  // Every file, kind and command at least once in the fast tier; every combination in the full one.
  for (const [f, file] of FILES.entries())
    for (const [kind, make, said] of share(KINDS, f % KINDS.length, KINDS.length))
      it.each(share(COMMANDS, f % COMMANDS.length, COMMANDS.length))(
        `${file} ${kind}: %s ends with exit 2 and one line`,
        (_, args) => {
          const run = path.join(tmp, `own-${++made}`);
          fs.cpSync(runs.run, run, { recursive: true });
          fs.rmSync(path.join(run, file));
          make(path.join(run, file));
          const r = bin(tmp, ...args(run));
          expect(r.ended, 'ended by itself').toBe(true);
          expect([r.status, r.stdout]).toEqual([2, '']);
          const lines = r.stderr.trimEnd().split('\n');
          expect(lines, r.stderr).toHaveLength(1);
          expect(lines[0]).toContain(
            `${path.join(run, file)}: cannot read file: it is ${said}, not a regular file`,
          );
        },
      );
});
