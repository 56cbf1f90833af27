/**
 * Issue 49's evidence, each family on the kind of issue it is meant to read: a quoted string and an
 * error's message found verbatim, a traceback's frames weighed from the last, names across naming
 * conventions, declarations scored by BM25, and closeness in the import graph to a named file.
 */
import { describe, expect, it } from 'vitest';
import {
  declarationNames,
  declarationScores,
} from '../../../src/harness/ingest/relevance/relevance-declarations.js';
import {
  IssueEvidence,
  isCompound,
  nameKey,
} from '../../../src/harness/ingest/relevance/relevance-evidence.js';
import {
  FAMILIES,
  FEATURES,
  type Feature,
  type FeatureFile,
  featuresOf,
  TaskSignals,
} from '../../../src/harness/ingest/relevance/relevance-features.js';
import { seededRank } from '../../../src/harness/ingest/relevance/relevance-graph.js';

const file = (path: string, text = '', outline = ''): FeatureFile => ({
  path,
  blob: path,
  size: text.length,
  test: path.includes('test'),
  source: path.endsWith('.py'),
  declared: '\n',
  text,
  outline,
});

function feature(
  task: string,
  files: readonly FeatureFile[],
  name: Feature,
  near: ReadonlyMap<string, ReadonlySet<string>> = new Map(),
): Record<string, number> {
  const x = featuresOf(new TaskSignals(task), files, new Map(), near);
  const at = FEATURES.indexOf(name);
  return Object.fromEntries(files.map((f) => [f.path, (x.get(f.path) as Float64Array)[at] as number]));
}

describe('the families', () => {
  it('are the features, each once, in order', () => {
    expect(Object.values(FAMILIES).flat()).toEqual([...FEATURES]);
  });
});

describe('strings and messages found verbatim', () => {
  const TASK =
    'Passing `units="degree"` fails with "Unit \'degree\' is not known":\n\nValueError: The truth value of an array is ambiguous (got 3)\n';

  it("a quote counts by how few files hold it; an error's message by its words between values", () => {
    const files = [
      file('a.py', 'raise ValueError("The truth value of an array is ambiguous")'),
      file('b.py', "x = 'is not known'; y = 'degree'"),
      file('c.py', "units='degree'"),
    ];
    const ev = new IssueEvidence(TASK);
    expect(ev.messages).toContain('The truth value of an array is ambiguous');
    expect(feature(TASK, files, 'message_found')).toEqual({ 'a.py': 1, 'b.py': 0, 'c.py': 0 });
    // `degree` is in two files: each gets half; `units="degree"` is written otherwise in c.py.
    expect(feature(TASK, files, 'quoted_rare')).toEqual({ 'a.py': 0, 'b.py': 0.5, 'c.py': 0.5 });
  });

  it("an apostrophe opens no quote: don't and it's quote nothing", () => {
    expect(new IssueEvidence("I don't think it's right").quoted).toEqual([]);
  });
});

describe('tracebacks', () => {
  const TRACE = `Traceback (most recent call last):
  File "/usr/lib/site-packages/pkg/api.py", line 10, in run
    helper()
  File "/usr/lib/site-packages/pkg/core.py", line 20, in helper
    _inner()
  File "/usr/lib/python3.9/json/decoder.py", line 5, in decode
ValueError: bad`;

  it('the last frame of the state weighs most, frames outside it are not counted', () => {
    const files = [file('pkg/api.py'), file('pkg/core.py'), file('pkg/other.py')];
    expect(feature(TRACE, files, 'frame_rank')).toEqual({
      'pkg/api.py': 0.5,
      'pkg/core.py': 1,
      'pkg/other.py': 0,
    });
  });

  it("a frame's function names the file that declares it, and pytest's frames are read too", () => {
    const task = 'src/pkg/mod.py:12: in convert_units\n    raise';
    const files = [
      file('lib/units.py', '', '3: def convert_units(x)'),
      file('lib/other.py', '', '1: def other()'),
    ];
    expect(feature(task, files, 'frame_function')).toEqual({ 'lib/units.py': 1, 'lib/other.py': 0 });
  });
});

describe('names across conventions', () => {
  it('StringSlice, string_slice, string-slice and stringslice are one name; a plain word is not compound', () => {
    expect(new Set(['StringSlice', 'string_slice', 'string-slice', 'stringslice'].map(nameKey))).toEqual(
      new Set(['stringslice']),
    );
    expect(isCompound('StringSlice')).toBe(true);
    expect(isCompound('__init__')).toBe(false);
    expect(isCompound('stringslice')).toBe(false);
  });

  it('a stem and a declaration are named by the words of the task, run together or not', () => {
    const files = [
      file('pkg/string_slice.py', '', '1: class StringSlice'),
      file('pkg/slicer.py', '', '1: def get_string_slice()'),
      file('pkg/other.py', '', '1: def other_thing()'),
    ];
    const task = 'The string slice option `--string-slice` is ignored';
    expect(feature(task, files, 'convention_stem')).toEqual({
      'pkg/string_slice.py': 1,
      'pkg/slicer.py': 0,
      'pkg/other.py': 0,
    });
    expect(feature('getStringSlice() is wrong', files, 'convention_declared')['pkg/slicer.py']).toBeCloseTo(
      Math.log(2),
      12,
    );
  });
});

describe('declarations', () => {
  it("an outline's names, its keywords and Go's receiver skipped", () => {
    expect(
      declarationNames(
        '1: class Card(Base)\n2:   async def _parse(self)\n9: func (r *Reader) Read(p []byte)',
      ),
    ).toEqual(['Card', '_parse', 'Read']);
  });

  it('a file scores by its best declaration, not by its length', () => {
    const names = new Map([
      ['small.py', ['parse_header']],
      ['large.py', ['alpha', 'beta', 'gamma', 'parse']],
    ]);
    const s = declarationScores('parse_header fails on long cards', names);
    expect(s.get('small.py') as number).toBeGreaterThan(s.get('large.py') as number);
  });
});

describe('the seeded walk over imports', () => {
  it('a neighbour of the named file ranks above a file two steps away, and a stranger gets nothing', () => {
    const near = new Map<string, Set<string>>([
      ['a.py', new Set(['b.py'])],
      ['b.py', new Set(['a.py', 'c.py'])],
      ['c.py', new Set(['b.py'])],
      ['d.py', new Set()],
    ]);
    const r = seededRank(near, new Set(['a.py']));
    expect(r.get('b.py') as number).toBeGreaterThan(r.get('c.py') as number);
    expect(r.get('d.py')).toBe(0);
    expect(seededRank(near, new Set())).toEqual(new Map());
    const files = ['a.py', 'b.py', 'c.py', 'd.py'].map((p) => file(p));
    const g = feature('see a.py', files, 'graph_rank', near);
    // The hub next to the named file is the walk's best; the named file close behind.
    expect(g['b.py']).toBe(1);
    expect(g['a.py'] as number).toBeGreaterThan(g['c.py'] as number);
    expect(g['d.py']).toBe(0);
  });
});
