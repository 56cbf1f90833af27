/**
 * Writing generated cases: one case as request.json, candidates.json and policy.json, or a whole
 * corpus folder that `ctxbench study --corpus` runs like the reference one, with its ledger under
 * `ledger/` and each budget's expected outcome certified by `exact`. Written whole or not at all.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  type CompilerPolicy,
  type ContextCandidate,
  candidateToJSON,
  policyToJSON,
  requestToJSON,
} from '../compiler/index.js';
import { BUDGETS } from './corpus.js';
import { solveExact } from './exact.js';
import { type GeneratedCase, generateCase } from './generate.js';

const json = (x: unknown) => `${JSON.stringify(x, null, 2)}\n`;

/** `{"candidates": [...]}` one record a line, streamed: a pool can outgrow any single string. */
function writeCandidates(file: string, candidates: readonly ContextCandidate[]): void {
  const fd = fs.openSync(file, 'w');
  try {
    fs.writeSync(fd, '{"candidates": [\n');
    let chunk = '';
    candidates.forEach((c, k) => {
      chunk += `${JSON.stringify(candidateToJSON(c))}${k < candidates.length - 1 ? ',' : ''}\n`;
      if (chunk.length > 1 << 20) {
        fs.writeSync(fd, chunk);
        chunk = '';
      }
    });
    fs.writeSync(fd, `${chunk}]}\n`);
  } finally {
    fs.closeSync(fd);
  }
}

/** Build a folder beside `out`, then move it into place in one rename. */
function whole(out: string, build: (dir: string) => void): void {
  const target = path.resolve(out);
  const partial = `${target}.partial-${process.pid}`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.mkdirSync(partial, { recursive: true });
  try {
    build(partial);
    fs.rmSync(target, { recursive: true, force: true });
    fs.renameSync(partial, target);
  } catch (e) {
    fs.rmSync(partial, { recursive: true, force: true });
    throw e;
  }
}

export function writeCase(out: string, generated: GeneratedCase, policy: CompilerPolicy): void {
  whole(out, (dir) => {
    fs.writeFileSync(path.join(dir, 'request.json'), json(requestToJSON(generated.request)));
    writeCandidates(path.join(dir, 'candidates.json'), generated.candidates);
    fs.writeFileSync(path.join(dir, 'policy.json'), json(policyToJSON(policy)));
  });
}

export interface CorpusSpec {
  readonly seed: string;
  readonly cases: number;
  readonly candidates: number;
  readonly policy: CompilerPolicy;
}

/** The name of the k-th case of a generated corpus. */
export const caseName = (seed: string, k: number, cases: number) =>
  `gen-${seed}-${String(k).padStart(String(Math.max(1, cases - 1)).length, '0')}`;

export function writeCorpus(out: string, spec: CorpusSpec): { refusals: number; unproven: number } {
  let refusals = 0;
  let unproven = 0;
  whole(out, (dir) => {
    fs.mkdirSync(path.join(dir, 'ledger'));
    const budgets: Record<string, Record<string, number>> = {};
    const expected: Record<string, Record<string, { success: boolean; reason: string | null }>> = {};
    const names: string[] = [];
    for (let k = 0; k < spec.cases; k++) {
      const name = caseName(spec.seed, k, spec.cases);
      names.push(name);
      const g = generateCase(`${spec.seed}/${k}`, spec.candidates, name);
      fs.writeFileSync(path.join(dir, `${name}.request.json`), json(requestToJSON(g.request)));
      writeCandidates(path.join(dir, `${name}.candidates.json`), g.candidates);
      fs.writeFileSync(path.join(dir, 'ledger', `${name}.truth.json`), json(g.ledger));
      budgets[name] = { ...g.budgets };
      expected[name] = {};
      for (const level of BUDGETS) {
        const budget = g.budgets[level];
        const request = { ...g.request, usable_token_budget: budget };
        const sel = solveExact({ request, candidates: g.candidates, policy: spec.policy, budget });
        if ('refusal' in sel) refusals++;
        if (sel.extras?.proven_optimal === false) unproven++;
        (expected[name] as Record<string, unknown>)[level] =
          'refusal' in sel ? { success: false, reason: sel.refusal.reason } : { success: true, reason: null };
      }
    }
    const manifest = {
      fixture_set: path.basename(path.resolve(out)),
      generator: { seed: spec.seed, cases: spec.cases, candidates: spec.candidates, expected_by: 'exact' },
      fixtures: names,
      budgets,
      expected,
    };
    fs.writeFileSync(path.join(dir, 'manifest.json'), json(manifest));
    fs.writeFileSync(path.join(dir, 'policy.json'), json(policyToJSON(spec.policy)));
  });
  return { refusals, unproven };
}
