/**
 * Two small repositories and SWE-bench instance records about them, for `ingest --swe-bench`: each
 * record's fate (a case, which files are must, which are missed, which instance is skipped and
 * why) is written down beside it, so that the tests know every outcome by construction.
 */
import fs from 'node:fs';
import path from 'node:path';
import { git, makeRepository } from './git-fixture.js';

const helpers = Array.from({ length: 12 }, (_, k) => `def helper_${k}(x):\n    return x + ${k}\n`).join('\n');
/** Over 256 bytes, and the same at both commits of `acme/widgets`: one blob for every case. */
export const UTIL = `"""Helpers the widgets share."""\n\n${helpers}`;
export const CORE_V1 = `"""The widget core: how a widget spins, and how fast."""\nfrom .util import helper_0, helper_1\n\n\ndef spin(widget):\n    """Spin the widget once, at the helper's offset."""\n    return helper_0(widget)\n\n\ndef speed(widget):\n    """How fast the widget spins, in turns a second."""\n    return helper_1(widget)\n`;
export const CORE_V2 = `${CORE_V1}\n\ndef stop(widget):\n    return None\n`;
export const BINARY = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]);

/** The text files of `acme/widgets` the pools hold, at either commit. */
export const WIDGET_POOL = ['README.md', 'src/widgets/core.py', 'src/widgets/util.py', 'tests/test_core.py'];

/** A section of a git diff that modifies `p`. */
const edit = (p: string): string =>
  `diff --git a/${p} b/${p}\nindex 1111111..2222222 100644\n--- a/${p}\n+++ b/${p}\n@@ -1 +1 @@\n-old\n+new\n`;
const create = (p: string): string =>
  `diff --git a/${p} b/${p}\nnew file mode 100644\nindex 0000000..3333333\n--- /dev/null\n+++ b/${p}\n@@ -0,0 +1 @@\n+new\n`;

export interface SweFixture {
  readonly repos: string;
  /** The records, in the file's order. */
  readonly records: readonly Record<string, unknown>[];
  /** `acme/widgets`'s two commits and `acme/gadgets`'s one. */
  readonly widgets: readonly string[];
  readonly gadgets: string;
}

/**
 * `<dir>/repos/acme__widgets` (SWE-bench's spelling) with two commits, and `<dir>/repos/acme/gadgets`
 * (owner/name) with one whose `data/table.txt` object is deleted from the repository, as a partial
 * clone would lack it.
 */
export function makeSweFixture(dir: string): SweFixture {
  const repos = path.join(dir, 'repos');
  const widgets = makeRepository(path.join(repos, 'acme__widgets'), [
    { write: 'README.md', content: '# Widgets\n\nSpinning widgets.\n' },
    { write: 'src/widgets/core.py', content: CORE_V1 },
    { write: 'src/widgets/util.py', content: UTIL },
    {
      write: 'tests/test_core.py',
      content: 'from widgets.core import spin\n\n\ndef test_spin():\n    assert spin(1) == 1\n',
    },
    { write: 'docs/logo.png', content: BINARY },
    { write: 'build/generated.py', content: 'GENERATED = True\n' },
    { write: 'vendor/six.py', content: 'PY3 = True\n' },
    { commit: 'widgets' },
    { write: 'src/widgets/core.py', content: CORE_V2 },
    { commit: 'stop' },
  ]);
  const gadgetsDir = path.join(repos, 'acme', 'gadgets');
  const [gadgets] = makeRepository(gadgetsDir, [
    { write: 'gadget.py', content: 'def gadget():\n    return 42\n' },
    { write: 'data/table.txt', content: 'a table the mirror lacks\n' },
    { commit: 'gadgets' },
  ]);
  const missing = git(gadgetsDir, ['rev-parse', 'HEAD:data/table.txt']);
  fs.rmSync(path.join(gadgetsDir, '.git', 'objects', missing.slice(0, 2), missing.slice(2)));
  const record = (id: string, repo: string, base: string, statement: string, patch: string) => ({
    repo,
    instance_id: id,
    base_commit: base,
    patch,
    problem_statement: statement,
    // Fields the published records carry and ingest does not read.
    test_patch: edit('tests/test_core.py'),
    FAIL_TO_PASS: '["tests/test_core.py::test_spin"]',
    created_at: '2024-01-01T00:00:00Z',
    version: '1.0',
  });
  const w = widgets as [string, string];
  return {
    repos,
    widgets: w,
    gadgets: gadgets as string,
    records: [
      record(
        'acme__widgets-1',
        'acme/widgets',
        w[0],
        'spin() ignores the helper offsets',
        edit('src/widgets/core.py') + edit('src/widgets/util.py'),
      ),
      record(
        'acme__widgets-2',
        'acme/widgets',
        w[1],
        'stop() should live in a module of its own',
        edit('src/widgets/core.py') + create('src/widgets/stop.py'),
      ),
      record(
        'acme__widgets-3',
        'acme/widgets',
        'f'.repeat(40),
        'a fix against a commit the clone lacks',
        edit('src/widgets/core.py'),
      ),
      record(
        'acme__widgets-4',
        'acme/widgets',
        w[1],
        'the logo and six are out of date',
        edit('docs/logo.png') + edit('vendor/six.py'),
      ),
      record(
        'acme__gadgets-7',
        'acme/gadgets',
        gadgets as string,
        'gadget() returns the wrong answer',
        edit('gadget.py'),
      ),
      record('nobody__missing-1', 'nobody/missing', w[0], 'a repository nobody cloned', edit('x.py')),
    ],
  };
}

/** Records as JSON Lines. */
export const jsonLines = (records: readonly unknown[]): string =>
  `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;
