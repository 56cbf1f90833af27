/**
 * Writing generated cases: one case as request.json, candidates.json and policy.json, or a whole
 * corpus folder that `ctxbench study --corpus` runs like the reference one, with its ledger under
 * `ledger/` and each budget's expected outcome certified by `exact`. Written whole or not at all.
 */
import path from 'node:path';
import {
  type CompilerPolicy,
  type ContextCandidate,
  candidateToJSON,
  policyToJSON,
  requestToJSON,
} from '../../compiler/index.js';
import { CORPUS_MANIFEST } from '../corpus/index.js';
import { strategyInput } from '../hosts/index.js';
import { loadExact } from '../kit/index.js';
import { jsonText as json, type LineFile, manifestHas, writeWhole } from '../output/index.js';
import type { Profile } from '../types.js';
import { BUDGETS } from '../vocabulary.js';
import { generateCase } from './case-records.js';
import type { GeneratedCase } from './finish.js';

// Generated budgets and expectations are certified by exact, so generating loads HiGHS.
const { solveExact } = await loadExact();

/** `{"candidates": [...]}` one record a line, streamed: a pool can outgrow any single string. */
function writeCandidates(out: LineFile, candidates: readonly ContextCandidate[]): void {
  out.add('{"candidates": [');
  for (const [k, c] of candidates.entries()) {
    out.add(`${JSON.stringify(candidateToJSON(c))}${k < candidates.length - 1 ? ',' : ''}`);
  }
  out.add(']}');
  out.close();
}

/** What marks a folder as generated output, for `--force`. */
export const GENERATED_MARKS = ['request.json', CORPUS_MANIFEST] as const;

/**
 * A corpus `generate --cases` wrote (its manifest names the generator): one `generate --force`
 * may replace, ledger and all, since the seed writes it again. A corpus written by hand never is.
 * A generated manifest lists names and budgets: anything larger was not written by generate.
 */
export const generatedCorpus = (dir: string): boolean => manifestHas(dir, 'generator', 1 << 24);

export function writeCase(out: string, generated: GeneratedCase, policy: CompilerPolicy): void {
  writeWhole(out, (w) => {
    w.write('request.json', json(requestToJSON(generated.request)));
    writeCandidates(w.lines('candidates.json'), generated.candidates);
    w.write('policy.json', json(policyToJSON(policy)));
  });
}

export interface CorpusSpec {
  readonly seed: string;
  readonly cases: number;
  readonly candidates: number;
  readonly policy: CompilerPolicy;
  readonly profile: Profile;
  /**
   * Where the tight budget lies: `below` (90% of the least legal cost: no legal bundle fits) or
   * `at-least-cost` (exactly the least legal cost: one just fits, the hardest budget to find it at).
   */
  readonly tight?: 'below' | 'at-least-cost' | undefined;
}

/** The name of the k-th case of a generated corpus. */
export const caseName = (seed: string, k: number, cases: number) =>
  `gen-${seed}-${String(k).padStart(String(Math.max(1, cases - 1)).length, '0')}`;

/** `done` is called after each case is written, for progress. */
export function writeCorpus(
  out: string,
  spec: CorpusSpec,
  done: (cases: number) => void = () => {},
): { refusals: number; unproven: number } {
  let refusals = 0;
  let unproven = 0;
  writeWhole(out, (w) => {
    const budgets: Record<string, Record<string, number>> = {};
    const expected: Record<string, Record<string, { success: boolean; reason: string | null }>> = {};
    const names: string[] = [];
    for (let k = 0; k < spec.cases; k++) {
      const name = caseName(spec.seed, k, spec.cases);
      names.push(name);
      const g = generateCase(`${spec.seed}/${k}`, spec.candidates, name, spec.profile);
      w.write(`${name}.request.json`, json(requestToJSON(g.request)));
      writeCandidates(w.lines(`${name}.candidates.json`), g.candidates);
      w.write(`ledger/${name}.truth.json`, json(g.ledger));
      budgets[name] = {
        ...g.budgets,
        ...(spec.tight === 'at-least-cost' ? { tight: g.leastLegalCost } : {}),
      };
      expected[name] = {};
      for (const level of BUDGETS) {
        const budget = (budgets[name] as Record<string, number>)[level] as number;
        const request = { ...g.request, usable_token_budget: budget };
        const sel = solveExact(strategyInput({}, { request, candidates: g.candidates, policy: spec.policy }));
        if ('refusal' in sel) refusals++;
        // Past its node bound exact proves nothing: a bundle is still a bundle, but a
        // SEARCH_LIMIT "refusal" is recorded as such and counted as unproven.
        if (sel.extras?.proven_optimal === false) unproven++;
        (expected[name] as Record<string, unknown>)[level] =
          'refusal' in sel ? { success: false, reason: sel.refusal.reason } : { success: true, reason: null };
      }
      done(k + 1);
    }
    const manifest = {
      fixture_set: path.basename(path.resolve(out)),
      generator: {
        seed: spec.seed,
        cases: spec.cases,
        candidates: spec.candidates,
        profile: spec.profile,
        ...(spec.tight === 'at-least-cost' ? { tight: 'at-least-cost' } : {}),
        expected_by: 'exact',
      },
      fixtures: names,
      budgets,
      expected,
    };
    w.write(CORPUS_MANIFEST, json(manifest));
    w.write('policy.json', json(policyToJSON(spec.policy)));
  });
  return { refusals, unproven };
}
