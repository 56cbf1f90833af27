/**
 * `bm25-swe` indexes what SWE-bench's retrieval code indexes: the `*.py` files its `is_test` rule
 * (utils.py: the lower-cased path split at spaces, `_`, `/` and `.`, a word `test`, `tests` or
 * `testing`) does not flag, each its path and text; a pool with none indexes every file that is
 * not a test. The rule's cases are those the Python expression gives; the ranking is the kit's
 * over those documents alone, and the answer does not depend on the pool's order or on earlier
 * calls.
 */
import { describe, expect, it } from 'vitest';
import type { ContextCandidate } from '../../src/compiler/index.js';
import { ranking, splitPool } from '../../src/harness/kit/index.js';
import bm25 from '../../strategies/bm25.js';
import bm25Swe, { isPython, isTest, sweBenchIndex } from '../../strategies/bm25-swe.js';
import { asBundle, measured } from '../helpers/compiled.js';
import { admittedOf, cand, strategyInputAt } from '../helpers/pool.js';

const task = (content: string) =>
  cand('task', { content, requirement: 'MANDATORY', order_role: 'task', token_count: 10 });
const file = (path: string, content: string) =>
  cand(path, { content: `File: ${path}\n${content}`, token_count: 20 });

describe("SWE-bench's is_test, word by word", () => {
  // What `is_test(name)` returns for each, read off the expression in utils.py.
  it.each([
    ['tests/foo.py', true],
    ['testing/x.py', true],
    ['foo_test.py', true],
    ['test_foo.py', true],
    ['pkg/test.py', true],
    ['src/Tests/Case.py', true],
    ['my tests/x.py', true],
    ['pkg/testing.py', true],
    ['conftest.py', false],
    ['latest.py', false],
    ['contest/test-data.py', false],
    ['foo-test.py', false],
    ['pytest/main.py', false],
    ['src/_pytest/python.py', false],
    ['testutils.py', false],
    ['attest.txt', false],
  ])('%s: %s', (path, test) => {
    expect(isTest(path)).toBe(test);
  });

  it('lists what rglob("*.py") lists: a name ending in .py, case and all', () => {
    expect(['a.py', 'a/b.py', 'a.pyi', 'a.pyx', 'A.PY', 'py', 'setup.cfg'].filter(isPython)).toEqual([
      'a.py',
      'a/b.py',
    ]);
  });
});

const POOL: ContextCandidate[] = [
  task('parser fails on nested brackets'),
  file('src/parser.py', 'def parse(): nested brackets parser'),
  file('src/lexer.py', 'def lex(): brackets'),
  file('tests/test_parser.py', 'parser parser parser nested brackets fails'),
  file('conftest.py', 'fixtures for the parser'),
  file('docs/parser.rst', 'The parser fails on nested brackets, parser parser'),
  file('setup.cfg', 'name = parser'),
];

describe('bm25-swe indexes the Python files that are not tests', () => {
  it('of a Python pool: conftest.py in, the test and the docs out', () => {
    const { documents } = splitPool(POOL);
    const choice = sweBenchIndex(documents);
    expect(choice.documents.map((d) => d.content_identity)).toEqual([
      'conftest.py',
      'src/lexer.py',
      'src/parser.py',
    ]);
    expect(choice.extras).toEqual({ index: 'python' });
  });

  it('retrieves from that index alone, scored over it (the kit ranks the same documents the same way)', () => {
    const input = strategyInputAt(10_000, POOL);
    const out = asBundle(measured(bm25Swe, input));
    const { documents, query } = splitPool(POOL);
    const expected = ranking(sweBenchIndex(documents).documents, query).map((r) => r.form.content_identity);
    expect(out.extras).toMatchObject({ ranked: expected, skipped: 0, index: 'python' });
    expect(out.admitted).toEqual(['task', ...expected]);
    // bm25 over every file puts the test and the docs first: they repeat the words.
    const all = asBundle(measured(bm25, input)).extras?.ranked as string[];
    expect(all.slice(0, 2).sort()).toEqual(['docs/parser.rst', 'tests/test_parser.py']);
    expect(expected[0]).toBe('src/parser.py');
  });

  it('says why a file it does not index is out', () => {
    const answer = bm25Swe.assemble(strategyInputAt(10_000, POOL));
    const entry = ('trace' in answer ? answer.trace : [])?.find((e) => e.candidate_id === 'docs/parser.rst');
    expect(entry?.reason_code).toBe('not-indexed');
  });

  it('of a pool without Python: every file that is not a test, by the same rule', () => {
    const pool = [
      task('fix the retry loop in the uploader'),
      file('src/uploader.ts', 'export function retry loop uploader'),
      file('src/uploader.test.ts', 'retry loop uploader retry loop'),
      file('README.md', 'the uploader'),
    ];
    const choice = sweBenchIndex(splitPool(pool).documents);
    expect(choice.documents.map((d) => d.content_identity)).toEqual(['README.md', 'src/uploader.ts']);
    expect(choice.extras).toEqual({ index: 'not-tests' });
    const out = asBundle(measured(bm25Swe, strategyInputAt(10_000, pool)));
    expect(out.admitted).toEqual(['task', 'src/uploader.ts', 'README.md']);
  });
});

describe('bm25-swe is deterministic', () => {
  it('the same answer whatever the order of the pool, and whatever it answered before', () => {
    const input = strategyInputAt(60, POOL);
    const first = bm25Swe.assemble(input);
    // Another pool in between: its analysed texts must not change this answer.
    bm25Swe.assemble(strategyInputAt(10_000, [task('brackets'), file('other.py', 'brackets')]));
    const reversed = bm25Swe.assemble({ ...input, candidates: [...POOL].reverse() });
    expect(admittedOf(reversed)).toEqual(admittedOf(first));
    expect('extras' in reversed && reversed.extras).toEqual('extras' in first && first.extras);
    expect(bm25Swe.assemble(input)).toEqual(first);
  });
});
