/**
 * A small multi-language project and its scripted history, for the end-to-end tests of `ingest`
 * and `pack`. What each commit changed is written down beside it, so that the tests can work out
 * the cases, ledgers and pools by hand.
 */
import path from 'node:path';
import { loadCorpus, requestAt } from '../../src/harness/corpus/index.js';
import { ingest } from '../../src/harness/ingest/history-ingest.js';
import type { BudgetName, Corpus, StrategyInput } from '../../src/harness/types.js';
import { BUDGETS } from '../../src/harness/vocabulary.js';
import { makeRepository, type Step } from './git-fixture.js';

/** Files over this many bytes are skipped: the tests pass it as --max-bytes. */
export const MAX_BYTES = 4000;

const w = (path: string, content: string | Buffer): Step => ({ write: path, content });

export const UTIL_V1 = `/** Small numeric helpers. */
export function clamp(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}
`;
export const UTIL_V2 = `/** Small numeric helpers. */
export function clamp(x: number, lo: number, hi: number): number {
  if (lo > hi && hi < lo) throw new RangeError('lo > hi');
  return x < lo ? lo : x > hi ? hi : x;
}
`;
const PARSER_V1 = `import { clamp } from './util.js';

/** Splits one line of comma-separated fields. */
export function parseLine(line: string): string[] {
  return line.split(',').slice(0, clamp(line.length, 0, 64));
}
`;
const PARSER_V2 = `import { clamp } from './util.js';

/** Splits one line of comma-separated fields; a quoted field may hold commas. */
export function parseLine(line: string): string[] {
  const fields = line.match(/("[^"]*"|[^,]*)(,|$)/g) ?? [];
  return fields.map((f) => f.replace(/,$/, '')).slice(0, clamp(line.length, 0, 64));
}
`;
const PARSER_V3 = PARSER_V2.replace(
  'export function parseLine(line: string): string[] {',
  "export function parseLine(line: string): string[] {\n  if (line === '') return [];",
);
const INDEX_V1 = `import { parseLine } from './parser.js';

export function main(input: string): number {
  return input.split('\\n').map(parseLine).length;
}
`;
const INDEX_V2 = INDEX_V1.replace('return input', "if (input === '') return 0;\n  return input");
const STATS_V1 = `"""Statistics over lists of numbers."""


def mean(xs):
    return sum(xs) / len(xs)
`;
const STATS_V2 = `${STATS_V1}

def median(xs):
    s = sorted(xs)
    return s[len(s) // 2]
`;
const STATS_V3 = STATS_V2.replace(
  '    return sum(xs) / len(xs)',
  '    if not xs:\n        return 0.0\n    return sum(xs) / len(xs)',
);
const GEO_V1 = `// Package geo measures distances on a plane.
package geo

import "math"

// Distance is the straight-line distance between two points.
func Distance(x1, y1, x2, y2 float64) float64 {
	return math.Hypot(x2-x1, y2-y1)
}
`;
const GEO_V2 = GEO_V1.replace(
  'return math.Hypot(x2-x1, y2-y1)',
  'return math.Min(math.Hypot(x2-x1, y2-y1), 1e9)',
);
const GEO_TEST_V1 = `package geo

import "testing"

func TestDistance(t *testing.T) {
	if Distance(0, 0, 3, 4) != 5 {
		t.Fatal("3-4-5")
	}
}
`;
const GEO_TEST_V2 = GEO_TEST_V1.replace(
  'func TestDistance',
  'func TestDistanceClamped(t *testing.T) {}\n\nfunc TestDistance',
);
const LIB_V1 = `//! A crate of shapes.
mod shapes;

pub use shapes::area;
`;
const LIB_V2 = `//! A crate of shapes.
mod shapes;

pub use shapes::{area, perimeter};
`;
const SHAPES_V1 = `//! Shapes and their measures.

pub struct Square {
    pub side: f64,
}

pub fn area(s: &Square) -> f64 {
    s.side * s.side
}
`;
const SHAPES_V2 = `${SHAPES_V1}
pub fn perimeter(s: &Square) -> f64 {
    4.0 * s.side
}
`;
const PARSER_TEST_V1 = `import { parseLine } from '../src/parser.js';

export function testParseLine(): boolean {
  return parseLine('a,b').length === 2;
}
`;
const PARSER_TEST_V2 = `${PARSER_TEST_V1}
export function testQuoted(): boolean {
  return parseLine('"a,b",c').length === 2;
}
`;
const HELPER_V1 = `/* left-pad, vendored */
function leftPad(s, n) {
  return s.padStart(n);
}
module.exports = leftPad;
`;
const HELPER_V2 = HELPER_V1.replace('s.padStart(n)', 'String(s).padStart(n)');
const DIST_V1 = `"use strict";
function main(input) {
  return input.split("\\n").length;
}
exports.main = main;
`;
const DIST_V2 = DIST_V1.replace('exports.main', '// rebuilt\nexports.main');

/** Not UTF-8: "café" and "naïve" in ISO-8859-1. */
export const LATIN1 = Buffer.from('caf\xe9 and na\xefve\n', 'latin1');
/** A PNG's signature and a few bytes, NULs among them. */
export const BINARY = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48]);
/** Text, one byte over --max-bytes. */
export const BIG = `${'x'.repeat(MAX_BYTES)}\n`;

/** The commit messages, by index (the commit made by the index-th `commit` or `merge` step). */
export const MESSAGES = [
  'Initial project',
  'Fix clamp bounds in src/util.ts',
  'Add median to the stats module',
  'Parse quoted fields in parseLine',
  'Bump left-pad from 1.0.0 to 1.1.0',
  'Add a triangle shape',
  'Rename geo.go to geometry.go',
  'Add perimeter to shapes',
  'Rebuild dist and document it',
  'Merge branch feature',
  'Handle empty input in mean and parseLine\n\nBoth used to fail on an empty list: mean divided by zero.',
  'Clamp distance in geo/geometry.go',
] as const;

/**
 * The history: a commit's comment says what it changed and what selection makes of it. Commit 7 is
 * on a branch made at 6; 9 merges it.
 */
export const SCRIPT: readonly Step[] = [
  w('README.md', '# demo\n\nA small project in four languages.\n'),
  w('.gitignore', '*.log\nlocal/\n'),
  w('package.json', '{"name": "demo", "dependencies": {"left-pad": "1.0.0"}}\n'),
  w('package-lock.json', '{"lockfileVersion": 3, "left-pad": "1.0.0"}\n'),
  w('src/util.ts', UTIL_V1),
  w('src/parser.ts', PARSER_V1),
  w('src/index.ts', INDEX_V1),
  w('tests/parser.test.ts', PARSER_TEST_V1),
  w('py/stats.py', STATS_V1),
  w('go.mod', 'module example.com/demo\n\ngo 1.22\n'),
  w('geo/geo.go', GEO_V1),
  w('geo/geo_test.go', GEO_TEST_V1),
  w('crate/Cargo.toml', '[package]\nname = "shapes"\nversion = "0.1.0"\n'),
  w('crate/src/lib.rs', LIB_V1),
  w('crate/src/shapes/mod.rs', SHAPES_V1),
  w('vendor/lib/helper.js', HELPER_V1),
  w('dist/index.js', DIST_V1),
  w('assets/logo.png', BINARY),
  w('docs/latin1.txt', LATIN1),
  w('data/big.txt', BIG),
  { commit: MESSAGES[0] }, // 0: root
  w('src/util.ts', UTIL_V2),
  { commit: MESSAGES[1] }, // 1: M src/util.ts
  w('py/stats.py', STATS_V2),
  { commit: MESSAGES[2] }, // 2: M py/stats.py
  w('src/parser.ts', PARSER_V2),
  w('tests/parser.test.ts', PARSER_TEST_V2),
  { commit: MESSAGES[3] }, // 3: M src/parser.ts, M tests/parser.test.ts
  w('package.json', '{"name": "demo", "dependencies": {"left-pad": "1.1.0"}}\n'),
  w('package-lock.json', '{"lockfileVersion": 3, "left-pad": "1.1.0"}\n'),
  { commit: MESSAGES[4] }, // 4: dependency bump (manifest and lockfile)
  w('crate/src/shapes/triangle.rs', 'pub struct Triangle {\n    pub a: f64,\n}\n'),
  { commit: MESSAGES[5] }, // 5: A crate/src/shapes/triangle.rs only: nothing at the parent
  { rename: 'geo/geo.go', to: 'geo/geometry.go' },
  { commit: MESSAGES[6] }, // 6: R geo/geo.go -> geo/geometry.go
  { checkout: 'feature', at: 6 },
  w('crate/src/lib.rs', LIB_V2),
  w('crate/src/shapes/mod.rs', SHAPES_V2),
  { commit: MESSAGES[7] }, // 7: M crate/src/lib.rs, M crate/src/shapes/mod.rs (on feature)
  { checkout: 'main' },
  w('dist/index.js', DIST_V2),
  w('README.md', '# demo\n\nA small project in four languages; dist/ is built.\n'),
  { commit: MESSAGES[8] }, // 8: generated file and docs only: no source file
  { merge: 'feature', message: MESSAGES[9] }, // 9: a merge
  w('py/stats.py', STATS_V3),
  w('src/parser.ts', PARSER_V3),
  w('src/index.ts', INDEX_V2),
  w('src/errors.ts', 'export class EmptyInput extends Error {}\n'),
  w('vendor/lib/helper.js', HELPER_V2),
  { commit: MESSAGES[10] }, // 10: M py/stats.py, src/parser.ts, src/index.ts; A src/errors.ts; M vendor/
  w('geo/geometry.go', GEO_V2),
  w('geo/geo_test.go', GEO_TEST_V2),
  { commit: MESSAGES[11] }, // 11: M geo/geometry.go, M geo/geo_test.go
];

/** Each eligible commit's index, with its ledger worked out from the script. */
export const ELIGIBLE: ReadonlyMap<
  number,
  { readonly must: readonly string[]; readonly should: readonly string[] }
> = new Map([
  [1, { must: ['src/util.ts'], should: [] }],
  [2, { must: ['py/stats.py'], should: [] }],
  [3, { must: ['src/parser.ts'], should: ['tests/parser.test.ts'] }],
  [6, { must: ['geo/geo.go'], should: [] }],
  [7, { must: ['crate/src/lib.rs', 'crate/src/shapes/mod.rs'], should: [] }],
  [10, { must: ['py/stats.py', 'src/index.ts', 'src/parser.ts'], should: [] }],
  [11, { must: ['geo/geometry.go'], should: ['geo/geo_test.go'] }],
]);

/** The fixture repository in `dir`; its commits' ids in the order of MESSAGES. */
export const makeProject = (dir: string): string[] => makeRepository(dir, SCRIPT);

export interface IngestedProject {
  readonly corpus: Corpus;
  /** The corpus folder. */
  readonly out: string;
  /** Every case at every budget: its name, the budget, and a strategy's input. */
  readonly inputs: readonly (readonly [string, BudgetName, StrategyInput])[];
}

/** The fixture repository made in `dir`/repo and ingested into `dir`/corpus at `budgets`. */
export async function ingestedProject(
  dir: string,
  budgets: readonly [number, number, number],
  seed: string,
): Promise<IngestedProject> {
  const repo = path.join(dir, 'repo');
  makeProject(repo);
  const out = path.join(dir, 'corpus');
  await ingest(repo, out, { commits: 50, budgets, seed, maxBytes: MAX_BYTES });
  const corpus = loadCorpus(out);
  const inputs = corpus.cases.flatMap((c) =>
    BUDGETS.map(
      (b) =>
        [
          c.name,
          b,
          { request: requestAt(c, b), candidates: c.candidates, policy: corpus.policy, budget: c.budgets[b] },
        ] as const,
    ),
  );
  return { corpus, out, inputs };
}
