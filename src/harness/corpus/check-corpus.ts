/**
 * What `ctxbench check` reports, for files walked (`walk`) or for records handed over in memory
 * (an MCP call's arguments): every finding, and the totals that decide the exit.
 */
import { type CompilerPolicy, defaultPolicy } from '../../compiler/index.js';
import { orderRoles } from './compiler-checks.js';
import { asProblem, type Finding, Findings } from './lint.js';
import {
  acrossFiles,
  identitiesOf,
  lintCandidatesFile,
  lintPolicyFile,
  lintRequestFile,
} from './lint-corpus.js';
import { lintTruth } from './lint-files.js';

/** The findings of some files, under `strict` or not, and what they come to. */
export interface Tally {
  /** Every listed finding, warnings made problems under `strict`. */
  readonly findings: readonly Finding[];
  /** Errors, listed or only counted (past FINDINGS_LISTED a file's findings are counted). */
  readonly problems: number;
  readonly warnings: number;
  /** Findings counted but not listed. */
  readonly unlisted: number;
}

export function tally(files: readonly Findings[], strict: boolean): Tally {
  const findings = files.flatMap((f) => f.list).map((f) => asProblem(f, strict));
  const unlisted = files.reduce((n, f) => n + f.unlisted.error + f.unlisted.warning, 0);
  const problems =
    findings.filter((f) => f.severity === 'error').length +
    files.reduce((n, f) => n + f.unlistedProblems(strict), 0);
  return { findings, problems, warnings: findings.length + unlisted - problems, unlisted };
}

/** `check --json`: each finding with every key present, null where it has no record or field. */
export const findingsJSON = (findings: readonly Finding[]) =>
  findings.map((f) => ({
    severity: f.severity,
    file: f.file,
    record: f.record ?? null,
    field: f.field ?? null,
    message: f.text,
  }));

/** Records given in memory, any of them; a ledger is checked against the pool's identities. */
export interface GivenRecords {
  readonly candidates?: unknown;
  readonly request?: unknown;
  readonly policy?: unknown;
  readonly ledger?: unknown;
}

/**
 * Records given in memory (a batch line's, an MCP call's arguments) checked as `check` checks them,
 * every finding's file `where`, its record the argument's: each record alone; a pool's order roles
 * against the policy given, else the default's; with a request and a pool, what only the inputs
 * together show; and a ledger, against the pool that reads.
 */
export function lintGiven(given: GivenRecords, where: string): Findings[] {
  const found: Findings[] = [];
  const pool =
    given.candidates === undefined ? undefined : lintCandidatesFile(where, {}, { raw: given.candidates });
  const request = given.request === undefined ? undefined : lintRequestFile(where, { raw: given.request });
  const policy = given.policy === undefined ? undefined : lintPolicyFile(where, { raw: given.policy });
  for (const f of [pool, request, policy]) if (f !== undefined) found.push(f.findings);
  // A policy that does not read is reported above; nothing is checked against it.
  const rules: CompilerPolicy | undefined = policy === undefined ? defaultPolicy() : policy.policy;
  if (pool !== undefined && rules !== undefined) found.push(orderRoles(pool.records, rules, where));
  if (pool?.candidates !== undefined && request?.request !== undefined && rules !== undefined)
    found.push(
      acrossFiles(request.request, pool.candidates, rules, {
        request: where,
        candidates: where,
        policy: where,
      }),
    );
  if (given.ledger !== undefined && pool?.candidates !== undefined) {
    const ledger = new Findings(where);
    lintTruth(given.ledger, ledger, identitiesOf(pool.candidates), 'ledger');
    found.push(ledger);
  }
  return found;
}
