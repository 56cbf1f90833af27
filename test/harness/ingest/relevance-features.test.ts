/**
 * The signals the relevance model weighs, each on the kind of task text it is meant to read: a
 * traceback, an import, a test's name, a backticked call. Each expectation names a file that a
 * looser or a stricter reading would get wrong.
 */
import { describe, expect, it } from 'vitest';
import {
  FEATURES,
  type Feature,
  type FeatureFile,
  featuresOf,
  stemOf,
  TaskSignals,
  testSubject,
} from '../../../src/harness/ingest/relevance/relevance-features.js';

const file = (path: string, over: Partial<FeatureFile> = {}): FeatureFile => ({
  path,
  blob: path,
  size: 100,
  test: /(^|\/)tests?\/|test_/.test(path),
  source: /\.(py|ts)$/.test(path),
  declared: '\n',
  ...over,
});

/** One feature of each file, by name. */
function feature(
  task: string,
  files: readonly FeatureFile[],
  name: Feature,
  bm25: ReadonlyMap<string, number> = new Map(),
  near: ReadonlyMap<string, ReadonlySet<string>> = new Map(),
): Record<string, number> {
  const x = featuresOf(new TaskSignals(task), files, bm25, near);
  const at = FEATURES.indexOf(name);
  return Object.fromEntries(files.map((f) => [f.path, (x.get(f.path) as Float64Array)[at] as number]));
}

describe('what a task points at', () => {
  const TRACEBACK = `Traceback (most recent call last):
  File "/home/me/.venv/lib/python3.9/site-packages/astropy/io/fits/card.py", line 1234, in _parse
    raise ValueError(x)
ValueError: bad card`;

  it('a traceback frame names the file whose path ends it, and only that one', () => {
    const files = [file('astropy/io/fits/card.py'), file('astropy/io/card.py'), file('fits/card.py')];
    const frame = feature(TRACEBACK, files, 'frame_named');
    expect(frame).toEqual({ 'astropy/io/fits/card.py': 1, 'astropy/io/card.py': 0, 'fits/card.py': 1 });
    // The whole path is not written as a word of its own: not path_named.
    expect(feature(TRACEBACK, files, 'path_named')['astropy/io/fits/card.py']).toBe(0);
  });

  it('a path written whole is path_named, not a frame', () => {
    const files = [file('src/app/main.ts')];
    expect(feature('See `src/app/main.ts`.', files, 'path_named')['src/app/main.ts']).toBe(1);
    expect(feature('See `src/app/main.ts`.', files, 'frame_named')['src/app/main.ts']).toBe(0);
  });

  it('a dotted module path names the module, its package, and a src/ layout', () => {
    const files = [
      file('sympy/core/basic.py'),
      file('sympy/core/__init__.py'),
      file('sympy/core/basics.py'),
      file('src/mypkg/util.py'),
      file('sympy/basic.py'),
    ];
    const got = feature('from sympy.core.basic import Basic; and mypkg.util.go()', files, 'module_named');
    expect(got).toEqual({
      'sympy/core/basic.py': 1,
      'sympy/core/__init__.py': 1,
      'sympy/core/basics.py': 0,
      'src/mypkg/util.py': 1,
      'sympy/basic.py': 0,
    });
  });

  it('a stem of four letters or more, as a word; a package by its folder; never a short one', () => {
    const files = [file('astropy/io/fits/card.py'), file('astropy/io/fits/__init__.py'), file('pkg/io.py')];
    const got = feature('Card parsing fails on FITS headers; io is fine', files, 'stem_named');
    expect(got).toEqual({ 'astropy/io/fits/card.py': 1, 'astropy/io/fits/__init__.py': 1, 'pkg/io.py': 0 });
    expect(feature('cards everywhere', [file('a/card.py')], 'stem_named')['a/card.py']).toBe(0);
  });

  it("a test's subject: by the test file the task points at, or by a test function's name", () => {
    const files = [file('pkg/card.py'), file('tests/test_card.py'), file('pkg/header.py')];
    const byFile = feature('tests/test_card.py fails on main', files, 'test_subject_named');
    expect(byFile).toEqual({ 'pkg/card.py': 1, 'tests/test_card.py': 0, 'pkg/header.py': 0 });
    const byName = feature('test_header_roundtrip and test_header fail', files, 'test_subject_named');
    expect(byName['pkg/header.py']).toBe(1);
    expect(byName['pkg/card.py']).toBe(0);
  });

  it('identifiers the task names as code and the outline declares: backticks, calls, dotted tails', () => {
    const files = [
      file('a.py', { declared: '\ncol_insert\nMatrix\nhelper\n' }),
      file('b.py', { declared: '\nunrelated\n' }),
      file('c.py', { declared: '\nrender\nwidth\n' }),
    ];
    const got = feature(
      '`Matrix.col_insert` is wrong; calling helper( breaks; see view.render',
      files,
      'identifiers_declared',
    );
    expect(got['a.py']).toBeCloseTo(Math.log1p(3), 12);
    expect(got['b.py']).toBe(0);
    expect(got['c.py']).toBeCloseTo(Math.log1p(1), 12);
  });

  it('an import neighbour of a file the task points at, in either direction', () => {
    const files = [file('a.py'), file('b.py'), file('c.py')];
    const near = new Map([
      ['a.py', new Set(['b.py'])],
      ['b.py', new Set(['a.py'])],
    ]);
    expect(feature('a.py breaks', files, 'import_neighbour', new Map(), near)).toEqual({
      'a.py': 0,
      'b.py': 1,
      'c.py': 0,
    });
  });

  it("BM25's rank: the best is rank 1, ties share a rank, a file matching nothing ranks after every match", () => {
    const files = [file('a'), file('b'), file('c'), file('d')];
    const bm25 = new Map([
      ['a', 1],
      ['b', 0.5],
      ['c', 0.5],
    ]);
    expect(feature('x', files, 'bm25_log_rank', bm25)).toEqual({
      a: 0,
      b: Math.log(2),
      c: Math.log(2),
      d: Math.log(3),
    });
  });
});

describe('names', () => {
  it('stems and test subjects', () => {
    expect(stemOf('a/b/card.test.ts')).toBe('card');
    expect(stemOf('pkg/fits/__init__.py')).toBe('fits');
    expect(stemOf('index.ts')).toBe('index');
    expect(testSubject('test_card')).toBe('card');
    expect(testSubject('card_test')).toBe('card');
    expect(testSubject('TestCard')).toBe('card');
    expect(testSubject('testing')).toBe('testing');
  });
});
