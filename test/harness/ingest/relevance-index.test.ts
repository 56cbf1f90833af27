import fc from 'fast-check';
import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import {
  codeTerms,
  pathNamer,
  RelevanceIndex,
} from '../../../src/harness/ingest/relevance/relevance-score.js';

const SEED = 20_261_202;

/** The scores as ingest first computed them: one minisearch search of the task, filtered. */
function reference(
  docs: readonly { blob: string; path: string; text: string }[],
  task: string,
  blobs: ReadonlySet<string>,
): Map<string, number> {
  const search = new MiniSearch<{ id: string; path: string; text: string }>({
    fields: ['path', 'text'],
    tokenize: codeTerms,
    processTerm: (t) => t,
    searchOptions: { boost: { path: 2 }, combineWith: 'OR' },
  });
  for (const d of docs) search.add({ id: d.blob, path: d.path, text: d.text });
  const hits = search.search(task, { filter: (r) => blobs.has(r.id as string) });
  const best = hits.reduce((m, h) => Math.max(m, h.score), 0);
  const out = new Map<string, number>();
  if (best <= 0) return out;
  for (const h of hits) out.set(h.id as string, h.score / best);
  return out;
}

// A small vocabulary, so that terms repeat within and across documents and tasks; camelCase and
// snake_case words split into terms that are also words of their own.
const WORDS = [
  'parse',
  'Parse',
  'parseTree',
  'tree',
  'tree_node',
  'node',
  'fix',
  'the',
  'HTTPServer',
  'server',
  'x1',
  'é',
];
const words = (max: number) =>
  fc.array(fc.constantFrom(...WORDS), { maxLength: max }).map((w) => w.join(' '));
const corpus = fc
  .array(fc.record({ path: words(3), text: words(30) }), { minLength: 1, maxLength: 12 })
  .map((ds) => ds.map((d, i) => ({ blob: `b${i}`, path: `${d.path.replace(/ /g, '/')}.ts`, text: d.text })));

describe(`RelevanceIndex.scores (fast-check seed ${SEED})`, () => {
  it('equals one filtered minisearch search of the task, to the bit, for several tasks on one index', () => {
    fc.assert(
      fc.property(
        corpus,
        fc.array(fc.tuple(words(8), fc.array(fc.boolean(), { minLength: 12, maxLength: 12 })), {
          minLength: 1,
          maxLength: 4,
        }),
        (docs, cases) => {
          const index = new RelevanceIndex();
          for (const d of docs) index.add(d);
          for (const [task, picks] of cases) {
            const blobs = new Set(docs.filter((_, i) => picks[i]).map((d) => d.blob));
            const got = index.scores(task, blobs);
            const want = reference(docs, task, blobs);
            expect([...got].sort()).toEqual([...want].sort());
          }
        },
      ),
      { seed: SEED, numRuns: 400 },
    );
  });

  it("an index of one task's terms alone (pack's) gives that task the same scores, to the bit", () => {
    fc.assert(
      fc.property(
        corpus,
        words(8),
        fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
        (docs, task, picks) => {
          const only = new RelevanceIndex(new Set(codeTerms(task)));
          for (const d of docs) only.add(d);
          const blobs = new Set(docs.filter((_, i) => picks[i]).map((d) => d.blob));
          expect([...only.scores(task, blobs)].sort()).toEqual([...reference(docs, task, blobs)].sort());
        },
      ),
      { seed: SEED, numRuns: 400 },
    );
  });

  it("an index of one task's terms refuses to score another task", () => {
    const only = new RelevanceIndex(new Set(codeTerms('parse tree')));
    only.add({ blob: 'a', path: 'a.ts', text: 'parse tree node' });
    expect(() => only.scores('parse node', new Set(['a']))).toThrow(/another task/);
  });

  it('scores a version added after a search with the grown index (worked by hand: the best is 1)', () => {
    const index = new RelevanceIndex();
    index.add({ blob: 'a', path: 'a.ts', text: 'parse tree' });
    expect(index.scores('parse', new Set(['a']))).toEqual(new Map([['a', 1]]));
    index.add({ blob: 'b', path: 'b.ts', text: 'parse parse parse' });
    const docs = [
      { blob: 'a', path: 'a.ts', text: 'parse tree' },
      { blob: 'b', path: 'b.ts', text: 'parse parse parse' },
    ];
    const got = index.scores('parse tree', new Set(['a', 'b']));
    expect(got).toEqual(reference(docs, 'parse tree', new Set(['a', 'b'])));
    // `a` matches both terms (twice the quality), so it is the best.
    expect(got.get('a')).toBe(1);
  });
});

describe('pathNamer', () => {
  it('names a path the task writes whole or by its file name, not by a stem or a folder', () => {
    const names = pathNamer('Fix `src/app/main.ts` and ./lib/util.py, then README.md.\nAlso (config.json).');
    expect(names('src/app/main.ts')).toBe(true);
    expect(names('lib/util.py')).toBe(true);
    expect(names('docs/README.md')).toBe(true);
    expect(names('x/config.json')).toBe(true);
    expect(names('src/app/main.js')).toBe(false);
    expect(names('src/app')).toBe(false);
    expect(names('Makefile')).toBe(false);
    expect(pathNamer('edit the Makefile')('Makefile')).toBe(true);
    expect(pathNamer('edit the Makefile')('build/Makefile')).toBe(false);
  });
});
