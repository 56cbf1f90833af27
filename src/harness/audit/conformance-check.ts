/** Golden parity with the Python reference: the 42 compilations, recompiled and compared. */
import fs from 'node:fs';
import path from 'node:path';
import {
  bundleToJSON,
  compileContext,
  renderBundleText,
  resultToV1JSON,
  traceToV1JSON,
  validateBundle,
  validateResult,
} from '../../compiler/index.js';
import { readJsonFile, requestAt } from '../corpus/index.js';
import { InputError } from '../errors.js';
import type { BudgetName, Corpus } from '../types.js';
import { BUDGETS } from '../vocabulary.js';
import { firstDifference } from './diff.js';

/**
 * The manifest of a folder vendored from the Python reference (its golden compilations, its
 * published run): the reference's own format, neither a corpus's nor a run folder's.
 */
export const REFERENCE_MANIFEST = 'manifest.json';

export interface ConformanceDetail {
  readonly case: string;
  readonly match: boolean;
  /** One line per disagreement with the golden file; empty when the case matches. */
  readonly differences: readonly string[];
}

export interface ConformanceReport {
  readonly cases: number;
  readonly mismatches: number;
  readonly details: readonly ConformanceDetail[];
}

type Golden = Record<string, unknown> & { fixture: string; budget: BudgetName };

/**
 * Golden parity (docs/compiler.md §19): every golden case is recompiled from the corpus and
 * compared structurally; the v2 trace and result are projected to v1 first. The validators,
 * the expected outcome and the budget are checked on the way.
 */
export function runConformance(corpus: Corpus, goldenDir: string): ConformanceReport {
  if (!fs.existsSync(goldenDir) || !fs.statSync(goldenDir).isDirectory()) {
    throw new InputError(goldenDir, 'golden folder not found');
  }
  const files = fs
    .readdirSync(goldenDir)
    .filter((f) => f.endsWith('.json') && f !== REFERENCE_MANIFEST)
    .sort();
  const details = files.map((file) => {
    const golden = readJsonFile(path.join(goldenDir, file));
    const g = golden as Partial<Golden> | null;
    if (
      typeof g !== 'object' ||
      g === null ||
      typeof g.fixture !== 'string' ||
      typeof g.budget !== 'string'
    ) {
      throw new InputError(
        path.join(goldenDir, file),
        'not a golden compilation (need "fixture" and "budget")',
      );
    }
    return checkCase(corpus, golden as Golden);
  });
  return { cases: details.length, mismatches: details.filter((d) => !d.match).length, details };
}

function checkCase(corpus: Corpus, golden: Golden): ConformanceDetail {
  const name = `${golden.fixture}-${golden.budget}`;
  const kase = corpus.cases.find((c) => c.name === golden.fixture);
  if (kase === undefined || !BUDGETS.includes(golden.budget)) {
    return { case: name, match: false, differences: ['no such case in the corpus'] };
  }
  const request = requestAt(kase, golden.budget);
  const { bundle, result } = compileContext(request, kase.candidates, corpus.policy);
  const differences: string[] = [];
  const same = (what: string, ours: unknown, theirs: unknown) => {
    const d = firstDifference(ours, theirs);
    if (d !== null) differences.push(`${what}: ${d}`);
  };
  same('success', result.success, golden.success);
  const failure = result.failure;
  if (failure !== null) {
    const g = (golden.failure ?? {}) as Record<string, unknown>;
    for (const key of ['reason', 'blocking_ids', 'diagnostic', 'budget_used', 'budget_total'] as const) {
      same(`failure.${key}`, failure[key], g[key]);
    }
  }
  const admitted = bundle?.items.map((i) => i.id) ?? [];
  same('admitted_candidate_ids', admitted, golden.admitted_candidate_ids);
  if (bundle !== null) {
    const forms = admitted.map((id) => kase.candidates.find((c) => c.candidate_id === id)?.representation_id);
    same('admitted_representation_ids', forms, golden.admitted_representation_ids);
    same('bundle_id', result.bundle_id, (golden.bundle as { id?: unknown } | null)?.id);
    same('bundle_tokens', result.bundle_tokens, golden.bundle_tokens);
    same('bundle_hash', result.bundle_hash, golden.bundle_hash);
    same('bundle', bundleToJSON(bundle), golden.bundle);
    same('rendered_text', renderBundleText(bundle), golden.rendered_text);
  } else {
    same('bundle', null, golden.bundle);
    same('rendered_text', null, golden.rendered_text);
  }
  same('trace', traceToV1JSON(result.trace), golden.trace);
  same('result', resultToV1JSON(result), golden.result);
  const expected = kase.expected[golden.budget];
  if (result.success !== expected.success || (failure?.reason ?? null) !== expected.reason) {
    differences.push(
      `outcome: got success=${result.success} reason=${failure?.reason ?? null}, expected success=${expected.success} reason=${expected.reason}`,
    );
  }
  const problems = [
    ...validateResult(result, request, kase.candidates),
    ...(bundle ? validateBundle(bundle, request, kase.candidates, corpus.policy) : []),
  ];
  if (problems.length > 0) differences.push(`validation: ${problems.join('; ')}`);
  if (result.success && (result.bundle_tokens ?? 0) > request.usable_token_budget)
    differences.push('over budget');
  return { case: name, match: differences.length === 0, differences };
}
