import path from 'node:path';
import { InputError } from '../input/errors.js';
import { readJsonFile, readJsonLines } from '../input/files.js';
import type { Row } from '../types.js';
import { PUBLISHED_ORDER } from '../vocabulary.js';

/** The published run calls the compiler `staged`. */
const PUBLISHED_NAME: ReadonlyMap<string, string> = new Map([['staged', 'compiler']]);

type Evaluation = Record<string, unknown> & { fixture: string; strategy: string; budget: string };
type Compilation = {
  fixture: string;
  strategy: string;
  budget: string;
  bundle_hash: string | null;
  trace: { entries: { candidate_id: string; decision: string }[] };
};

const key = (c: string, b: string, s: string) => `${c}/${b}/${s}`;

function readPublished(dir: string) {
  const results = path.join(dir, 'results.json');
  const lines = path.join(dir, 'compilation.jsonl');
  const evaluations = (readJsonFile(results) as { evaluations?: Evaluation[] }).evaluations;
  if (!Array.isArray(evaluations)) throw new InputError(results, 'no evaluations');
  const compilations = readJsonLines(lines).map(({ value }) => value as Compilation);
  return { evaluations, compilations };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Every difference, one line each; empty when the run reproduces the published rows. */
export function verifyRows(rows: readonly Row[], publishedDir: string): string[] {
  const { evaluations, compilations } = readPublished(publishedDir);
  const ours = new Map(rows.map((r) => [key(r.case, r.budget, r.strategy), r]));
  const theirs = new Map(
    compilations.map((c) => [key(c.fixture, c.budget, PUBLISHED_NAME.get(c.strategy) ?? c.strategy), c]),
  );
  const differences: string[] = [];
  for (const e of evaluations) {
    const name = PUBLISHED_NAME.get(e.strategy) ?? e.strategy;
    const k = key(e.fixture, e.budget, name);
    const row = ours.get(k) as (Row & Record<string, unknown>) | undefined;
    if (row === undefined) {
      differences.push(`${k}: row missing from the run`);
      continue;
    }
    for (const [field, value] of Object.entries(e)) {
      if (field === 'fixture' || field === 'strategy' || field === 'budget') continue;
      if (!same(row[field], value))
        differences.push(
          `${k}: ${field}: ours ${JSON.stringify(row[field])}, published ${JSON.stringify(value)}`,
        );
    }
    const c = theirs.get(k);
    if (c === undefined) {
      differences.push(`${k}: no published compilation`);
      continue;
    }
    if (!same(row.bundle_hash, c.bundle_hash)) {
      differences.push(`${k}: bundle_hash: ours ${row.bundle_hash}, published ${c.bundle_hash}`);
    }
    if (row.success) {
      const admitted = c.trace.entries
        .filter((x) => x.decision === 'ADMITTED')
        .map((x) => x.candidate_id)
        .sort();
      const mine = [...row.admitted].sort();
      if (!same(mine, admitted))
        differences.push(`${k}: admitted: ours [${mine.join(' ')}], published [${admitted.join(' ')}]`);
    }
  }
  const published = new Set(
    evaluations.map((e) => key(e.fixture, e.budget, PUBLISHED_NAME.get(e.strategy) ?? e.strategy)),
  );
  for (const r of rows) {
    const k = key(r.case, r.budget, r.strategy);
    if ((PUBLISHED_ORDER as readonly string[]).includes(r.strategy) && !published.has(k)) {
      differences.push(`${k}: not in the published run`);
    }
  }
  return differences;
}
