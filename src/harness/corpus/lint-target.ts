/**
 * What `ctxbench check` is pointed at: a corpus folder, or one file, whose kind its name says
 * (`*candidates.json`, `*request.json`, `*policy*.json`, `manifest.json`, `*.truth.json`,
 * `*.jsonl`) or, failing that, its content. A file beside its corpus is checked against it: a
 * pool against the policy there, a manifest against the cases, a truth file against its case.
 */
import fs from 'node:fs';
import path from 'node:path';
import { type CompilerPolicy, defaultPolicy, isPlainObject } from '../../compiler/index.js';
import { InputError } from '../errors.js';
import { BlobStore } from './blobs.js';
import { lintGiven } from './check-corpus.js';
import { orderRoles } from './compiler-checks.js';
import { CANDIDATES_SUFFIX, CORPUS_MANIFEST, caseNames, policyFileOf } from './folder.js';
import { readTextLines } from './input-files.js';
import { parseJson } from './json-text.js';
import { Findings } from './lint.js';
import {
  identitiesOf,
  lintCandidatesFile,
  lintPolicyFile,
  lintRequestFile,
  type Parsed,
  readDoc,
  TRUTH_SUFFIX,
  type Walk,
  walkCorpus,
} from './lint-corpus.js';
import { lintBatchShape, lintManifest, lintTruth } from './lint-files.js';

type FileKind = 'candidates' | 'request' | 'policy' | 'manifest' | 'truth' | 'batch';

/** A file's kind by its name, or by what it holds; undefined when neither tells. */
function kindOf(file: string, doc?: unknown): FileKind | undefined {
  const base = path.basename(file);
  if (base.endsWith('.jsonl')) return 'batch';
  if (base.endsWith('candidates.json')) return 'candidates';
  if (base.endsWith('request.json')) return 'request';
  if (base === CORPUS_MANIFEST) return 'manifest';
  if (base.endsWith(TRUTH_SUFFIX)) return 'truth';
  if (base.endsWith('.json') && base.includes('policy')) return 'policy';
  if (Array.isArray(doc)) return 'candidates';
  if (!isPlainObject(doc)) return undefined;
  const has = (k: string) => Object.hasOwn(doc, k);
  if (has('candidates')) return 'candidates';
  if (has('identity_truth')) return 'truth';
  if (has('budgets')) return 'manifest';
  if (has('request_id') || has('usable_token_budget')) return 'request';
  if (has('order_roles') || has('min_discretionary_relevance') || has('mandatory_form')) return 'policy';
  return undefined;
}

/**
 * A pool on its own: its records, and the order roles of the policy it would be compiled with:
 * the one given, else the one beside it, else the default.
 */
function lonePool(file: string, policyFile: string | undefined, parsed: Parsed): Findings[] {
  const dir = path.dirname(file);
  const c = lintCandidatesFile(
    file,
    { corpus: fs.existsSync(path.join(dir, CORPUS_MANIFEST)) },
    parsed,
    new BlobStore(dir),
  );
  const found = [c.findings];
  let policy: CompilerPolicy | undefined = defaultPolicy();
  let given = policyFile;
  if (given === undefined)
    try {
      given = policyFileOf(dir);
    } catch {
      // No policy beside it, or more than one: the default's roles.
    }
  if (given !== undefined) {
    const p = lintPolicyFile(given);
    // A policy named on the command line is checked too; one found beside the pool is only used.
    if (policyFile !== undefined) found.push(p.findings);
    policy = p.policy;
  }
  if (policy) found.push(orderRoles(c.records, policy, file));
  return found;
}

/** The candidates of a truth file's case, where a corpus keeps them: beside its ledger folder. */
function caseIdentities(truthFile: string): ReadonlySet<string> | undefined {
  const name = path.basename(truthFile).slice(0, -TRUTH_SUFFIX.length);
  const dir = path.dirname(path.resolve(truthFile));
  const places = [
    path.join(dir, '..', `${name}${CANDIDATES_SUFFIX}`),
    path.join(dir, '..', '..', 'corpus', path.basename(dir), `${name}${CANDIDATES_SUFFIX}`),
  ];
  const file = places.find((f) => fs.existsSync(f));
  if (file === undefined) return undefined;
  const c = lintCandidatesFile(file, {}, undefined, new BlobStore(path.dirname(file)));
  return c.candidates && identitiesOf(c.candidates);
}

/** One file of any kind. */
function walkFile(file: string, policyFile?: string): Walk {
  const named = kindOf(file);
  if (named === 'batch') return { files: walkBatch(file), cases: undefined };
  const findings = new Findings(file);
  const raw = readDoc(file, findings);
  const kind = named ?? kindOf(file, raw);
  if (raw === undefined) return { files: [findings], cases: undefined };
  const dir = path.dirname(file);
  switch (kind) {
    case 'candidates':
      return { files: lonePool(file, policyFile, { raw }), cases: undefined };
    case 'request':
      return { files: [lintRequestFile(file, { raw }).findings], cases: undefined };
    case 'policy':
      return { files: [lintPolicyFile(file, { raw }).findings], cases: undefined };
    case 'manifest': {
      const cases = fs.existsSync(path.join(dir, CORPUS_MANIFEST)) ? caseNames(dir) : [];
      lintManifest(raw, findings, cases.length > 0 ? cases : undefined);
      break;
    }
    case 'truth':
      lintTruth(raw, findings, caseIdentities(file));
      break;
    default:
      findings.error(
        undefined,
        undefined,
        'cannot tell which record this file holds (name it *.candidates.json, *.request.json, *policy*.json, manifest.json, *.truth.json or *.jsonl)',
      );
  }
  return { files: [findings], cases: undefined };
}

/** A `compile --batch` file, line by line, as the command reads it: blank lines skipped. */
function walkBatch(file: string): Findings[] {
  const whole = new Findings(file);
  let lines: ReturnType<typeof readTextLines>;
  try {
    lines = readTextLines(file);
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    whole.error(undefined, undefined, e.message);
    return [whole];
  }
  const found: Findings[] = [whole];
  lines.forEach((line, k) => {
    if ('text' in line && line.text.trim() === '') return;
    const where = `${file}:${k + 1}`;
    const parsed = 'text' in line ? parseJson(line.text) : line;
    if ('problem' in parsed || !isPlainObject(parsed.value)) {
      const out = new Findings(where);
      out.error(undefined, undefined, 'problem' in parsed ? parsed.problem : 'not a JSON object');
      found.push(out);
    } else found.push(...lintBatchLine(parsed.value, where));
  });
  return found;
}

/** One batch line: its shape, then its records as `lintGiven` checks records given together. */
export function lintBatchLine(o: Readonly<Record<string, unknown>>, where: string): Findings[] {
  const shape = new Findings(where);
  lintBatchShape(o, shape);
  return [shape, ...lintGiven(o, where)];
}

/** A corpus folder or one file; a path that is neither stops with exit 2. */
export function walk(target: string, policyFile?: string): Walk {
  if (!fs.existsSync(target)) throw new InputError(target, 'no such file or folder');
  return fs.statSync(target).isDirectory() ? walkCorpus(target, policyFile) : walkFile(target, policyFile);
}
