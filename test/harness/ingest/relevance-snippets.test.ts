/**
 * The features issue 49's error analysis asked for: what kind of file a path says it is, and what
 * an issue's code says (a `Class.method` pair declared, a module imported, a name imported from a
 * package, a method reached for), each on the kind of issue it is meant to read.
 */
import { describe, expect, it } from 'vitest';
import {
  FEATURES,
  type Feature,
  type FeatureFile,
  featuresOf,
  TaskSignals,
} from '../../../src/harness/ingest/relevance/relevance-features.js';
import { pathKinds } from '../../../src/harness/ingest/relevance/relevance-paths.js';
import { codeLines, SnippetEvidence } from '../../../src/harness/ingest/relevance/relevance-snippets.js';

const file = (path: string, text = '', outline = ''): FeatureFile => ({
  path,
  blob: path,
  size: text.length,
  test: false,
  source: path.endsWith('.py'),
  declared: '\n',
  text,
  outline,
});

function feature(task: string, files: readonly FeatureFile[], name: Feature): Record<string, number> {
  const x = featuresOf(new TaskSignals(task), files, new Map(), new Map());
  const at = FEATURES.indexOf(name);
  return Object.fromEntries(files.map((f) => [f.path, (x.get(f.path) as Float64Array)[at] as number]));
}

describe('what kind of file a path says it is', () => {
  it('documentation and examples, test folders, a folder file, vendored code', () => {
    expect(pathKinds('doc/en/example/conftest.py')).toEqual([1, 0, 0, 0]);
    expect(pathKinds('testing/python/fixtures.py')).toEqual([0, 1, 0, 0]);
    expect(pathKinds('sympy/core/__init__.py')).toEqual([0, 0, 1, 0]);
    expect(pathKinds('requests/packages/urllib3/exceptions.py')).toEqual([0, 0, 0, 1]);
    expect(pathKinds('sphinx/themes/basic/static/jquery.js')).toEqual([0, 0, 0, 1]);
    // A file named like a folder is not in one.
    expect(pathKinds('src/docs.py')).toEqual([0, 0, 0, 0]);
  });
});

describe("an issue's code", () => {
  const TASK = [
    '`Dataset.update` computes chunked arrays eagerly',
    '```python',
    'from xarray.core import Dataset, merge',
    'import numpy.linalg as la',
    'ds = Dataset()',
    'ds.update({"foo": ds.header_rows})',
    '```',
    '>>> ds.chunks',
  ].join('\n');

  it('its lines: fenced blocks and console lines', () => {
    expect(codeLines(TASK)).toEqual([
      'from xarray.core import Dataset, merge',
      'import numpy.linalg as la',
      'ds = Dataset()',
      'ds.update({"foo": ds.header_rows})',
      'ds.chunks',
    ]);
    const ev = new SnippetEvidence(TASK);
    expect([...ev.modules]).toEqual([
      'xarray/core',
      'xarray/core/Dataset',
      'xarray/core/merge',
      'numpy/linalg',
    ]);
    expect(ev.used).toEqual(['update', 'header_rows', 'chunks']);
  });

  it('a pair whose both halves a file declares; a module imported; a name imported from a package the file is in', () => {
    const files = [
      file(
        'xarray/core/dataset.py',
        'def update(self): ...',
        '1: class Dataset:\n9:   def update(self, other):',
      ),
      file('xarray/core/merge.py', 'def merge(): ...', '1: def merge(objs):'),
      file('xarray/core/dataarray.py', '', '1: class DataArray:\n3:   def update(self):'),
    ];
    expect(feature(TASK, files, 'pair_declared')).toEqual({
      'xarray/core/dataset.py': Math.log(2),
      'xarray/core/merge.py': 0,
      'xarray/core/dataarray.py': 0,
    });
    expect(feature(TASK, files, 'snippet_imported')).toEqual({
      'xarray/core/dataset.py': 0,
      'xarray/core/merge.py': 1,
      'xarray/core/dataarray.py': 0,
    });
    expect(feature(TASK, files, 'import_declared')).toEqual({
      'xarray/core/dataset.py': Math.log(2),
      'xarray/core/merge.py': Math.log(2),
      'xarray/core/dataarray.py': 0,
    });
  });

  it('a name it reaches for counts by how few files hold it', () => {
    const files = [file('a.py', 'def update(): header_rows'), file('b.py', 'update'), file('c.py', '')];
    expect(feature(TASK, files, 'snippet_used')).toEqual({ 'a.py': 1.5, 'b.py': 0.5, 'c.py': 0 });
  });
});
