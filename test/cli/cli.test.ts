import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { COMPILE_KEYS, cli, inputFlags } from '../helpers/cli.js';
import { CORPUS_DIR, ROOT } from '../helpers/corpus.js';
import { tempDir } from '../helpers/temp.js';

// The process boundary is not what this file is about: strategies answer in this thread.
vi.mock('../../src/harness/hosts/hosts.js', () => import('../helpers/in-thread-hosts.js'));

const tmp = tempDir('cli');

const caseFile = (name: string, kind: 'request' | 'candidates') =>
  path.join(CORPUS_DIR, `${name}.${kind}.json`);
const write = (name: string, data: unknown) => {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, typeof data === 'string' ? data : JSON.stringify(data));
  return file;
};
const requestWith = (name: string, budget: number) =>
  write(`${name}-${budget}.request.json`, {
    ...JSON.parse(fs.readFileSync(caseFile(name, 'request'), 'utf8')),
    usable_token_budget: budget,
  });

const compileArgs = (request: string, candidates: string) => ['compile', ...inputFlags(request, candidates)];

describe('compile', () => {
  it('prints bundle, v2 result, rendered text and validation', async () => {
    const r = await cli(
      ...compileArgs(requestWith('dependency-trap', 900), caseFile('dependency-trap', 'candidates')),
    );
    expect(r.code).toBe(0);
    const o = JSON.parse(r.stdout);
    expect(Object.keys(o)).toEqual(COMPILE_KEYS);
    // The compiler reports nothing beside its result.
    expect(o.extras).toEqual({});
    expect(o.result.schema_version).toBe('project_context.compilation_result.v2');
    expect(o.result.trace.schema_version).toBe('project_context.decision_trace.v2');
    expect(o.validation).toEqual({ valid: true, problems: [] });
    expect(o.rendered_text.startsWith('[CONTEXT BUNDLE]\n')).toBe(true);
  });

  it('prints a refusal with exit 0 and null bundle and text', async () => {
    const r = await cli(
      ...compileArgs(requestWith('mandatory-overflow', 4000), caseFile('mandatory-overflow', 'candidates')),
    );
    expect(r.code).toBe(0);
    const o = JSON.parse(r.stdout);
    expect([o.bundle, o.rendered_text, o.result.failure.reason]).toEqual([null, null, 'INSUFFICIENT_BUDGET']);
  });

  it('writes --output and nothing to stdout', async () => {
    const out = path.join(tmp, 'out', 'compiled.json');
    const r = await cli(
      ...compileArgs(requestWith('wrong-scope', 500), caseFile('wrong-scope', 'candidates')),
      '--output',
      out,
    );
    expect([r.code, r.stdout]).toEqual([0, '']);
    expect(JSON.parse(fs.readFileSync(out, 'utf8')).result.success).toBe(true);
  });
});

describe('compile --budget, and extras', () => {
  it('--budget N compiles exactly as a request file with that budget', async () => {
    const cands = caseFile('dependency-trap', 'candidates');
    for (const budget of [900, 1400, 400]) {
      const flagged = await cli(
        ...compileArgs(requestWith('dependency-trap', 2200), cands),
        '--budget',
        String(budget),
      );
      const edited = await cli(...compileArgs(requestWith('dependency-trap', budget), cands));
      expect(flagged.code).toBe(0);
      expect(flagged.stdout).toBe(edited.stdout);
      const o = JSON.parse(flagged.stdout);
      if (o.result.success) expect(o.result.bundle_tokens).toBeLessThanOrEqual(budget);
      else expect(o.result.failure.budget_total).toBe(budget);
    }
  });

  it('a --budget that is not a whole number of tokens is a usage error', async () => {
    for (const bad of ['-1', '2.5', 'lots']) {
      const r = await cli(
        ...compileArgs(requestWith('wrong-scope', 500), caseFile('wrong-scope', 'candidates')),
        '--budget',
        bad,
      );
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/--budget/);
    }
  });

  it("a strategy's extras reach the output: exact says whether it proved its answer", async () => {
    const r = await cli(
      ...compileArgs(requestWith('dependency-trap', 900), caseFile('dependency-trap', 'candidates')),
      '--strategy',
      'exact',
    );
    expect(r.code).toBe(0);
    const o = JSON.parse(r.stdout);
    expect(typeof o.extras.proven_optimal).toBe('boolean');
  });
});

describe('bad input: exit 2, one line naming file, record and field, nothing written', () => {
  it('a candidate with a wrong field type', async () => {
    const bad = write('bad.json', '{"candidates": [{"candidate_id": 7}]}');
    const out = path.join(tmp, 'never.json');
    const r = await cli(...compileArgs(requestWith('wrong-scope', 500), bad), '--output', out);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    // The first problem, then the count of the others: the record's fourteen other required fields.
    expect(r.stderr.trim().split('\n')).toEqual([
      `ctxbench: ${bad}: candidates[0]: invalid candidate_id: 7 (need a non-empty string) (and 14 more problems: ctxbench check ${bad})`,
    ]);
    expect(fs.existsSync(out)).toBe(false);
  });

  it('a later field of a named candidate', async () => {
    const good = JSON.parse(fs.readFileSync(caseFile('wrong-scope', 'candidates'), 'utf8'));
    good.candidates[1].requirement = 'OPTIONAL';
    const bad = write('bad-requirement.json', good);
    const r = await cli(...compileArgs(requestWith('wrong-scope', 500), bad));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `ctxbench: ${bad}: candidates[1] "taskreq-1": unsupported requirement: "OPTIONAL" (need MANDATORY, REQUIRED, PREFERRED or DISCRETIONARY)\n`,
    );
  });

  it('a missing file, broken JSON, a bad budget, a policy mismatch', async () => {
    const cands = caseFile('wrong-scope', 'candidates');
    const missing = await cli(...compileArgs(path.join(tmp, 'nope.json'), cands));
    expect([missing.code, missing.stderr]).toEqual([
      2,
      `ctxbench: ${path.join(tmp, 'nope.json')}: cannot read file (ENOENT)\n`,
    ]);
    const broken = write('broken.json', '{"request_id": ');
    expect((await cli(...compileArgs(broken, cands))).stderr).toMatch(
      /^ctxbench: .*broken\.json: not valid JSON/,
    );
    const base = JSON.parse(fs.readFileSync(caseFile('wrong-scope', 'request'), 'utf8'));
    const negative = write('negative.json', { ...base, usable_token_budget: -1 });
    expect((await cli(...compileArgs(negative, cands))).stderr).toBe(
      `ctxbench: ${negative}: request: invalid usable_token_budget: -1 (need an integer >= 0)\n`,
    );
    const other = write('other-policy.json', { ...base, policy_version: 'p2' });
    const r = await cli(...compileArgs(other, cands));
    expect([r.code, r.stderr]).toEqual([
      2,
      `ctxbench: ${other}: request: request policy "p2" != compiler policy "compiler-policy-v1" (policy file ${path.join(CORPUS_DIR, 'compiler-policy-v1.json')})\n`,
    ]);
  });

  it('duplicate ids are the candidates file’s fault', async () => {
    const good = JSON.parse(fs.readFileSync(caseFile('wrong-scope', 'candidates'), 'utf8'));
    const dup = write('dup.json', { candidates: [...good.candidates, good.candidates[0]] });
    const r = await cli(...compileArgs(requestWith('wrong-scope', 500), dup));
    expect(r.stderr).toBe(
      `ctxbench: ${dup}: candidates[4] "instr-1": duplicate candidate_id (also candidates[0] "instr-1")\n`,
    );
  });

  it('unknown commands and flags are usage errors', async () => {
    for (const args of [['frobnicate'], ['compile', '--nonsense', 'x'], []]) {
      const r = await cli(...args);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});

describe('compile --batch', () => {
  it('answers every line in order, bad lines as {"error"}', async () => {
    const request = JSON.parse(fs.readFileSync(requestWith('dependency-trap', 900), 'utf8'));
    const candidates = JSON.parse(fs.readFileSync(caseFile('dependency-trap', 'candidates'), 'utf8'));
    const policy = JSON.parse(fs.readFileSync(path.join(CORPUS_DIR, 'compiler-policy-v1.json'), 'utf8'));
    const batch = write(
      'batch.jsonl',
      [
        JSON.stringify({ request, candidates: candidates.candidates, policy }),
        '{"request": ',
        JSON.stringify({ request: { ...request, usable_token_budget: 1400 }, candidates, policy }),
        JSON.stringify({ request, candidates: [{ candidate_id: 'x' }], policy }),
      ].join('\n'),
    );
    const r = await cli('compile', '--batch', batch);
    expect(r.code).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(4);
    expect(lines[0].result.bundle_tokens).toBe(789);
    expect(lines[1].error).toMatch(/batch\.jsonl:2: not valid JSON/);
    expect(lines[2].result.bundle_tokens).toBe(1093);
    // A line's problems are told like a file's: the first, and how many more `check` lists.
    expect(lines[3].error).toBe(
      `${batch}:4: candidates[0] "x": missing content_identity (and 13 more problems: ctxbench check ${batch})`,
    );
  });

  it('stops with exit 2 when the file cannot be read', async () => {
    expect((await cli('compile', '--batch', path.join(tmp, 'absent.jsonl'))).code).toBe(2);
  });

  it('skips blank lines, names the others by their line in the file, and honours --output and --budget', async () => {
    const request = JSON.parse(fs.readFileSync(requestWith('dependency-trap', 2200), 'utf8'));
    const candidates = JSON.parse(fs.readFileSync(caseFile('dependency-trap', 'candidates'), 'utf8'));
    const policy = JSON.parse(fs.readFileSync(path.join(CORPUS_DIR, 'compiler-policy-v1.json'), 'utf8'));
    const good = JSON.stringify({ request, candidates, policy });
    const batch = write('blank.jsonl', ['', good, '   ', '{', '', good, ''].join('\n'));
    const r = await cli('compile', '--batch', batch, '--budget', '900');
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(3);
    expect(lines[1].error).toMatch(new RegExp(`^${batch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:4: `));
    // The budget applies to every line: the same as a request of that budget.
    const single = JSON.parse(
      (
        await cli(
          ...compileArgs(requestWith('dependency-trap', 900), caseFile('dependency-trap', 'candidates')),
        )
      ).stdout,
    );
    expect(lines[0]).toEqual(single);
    expect(lines[2]).toEqual(single);
    const out = path.join(tmp, 'batch-out.jsonl');
    const written = await cli('compile', '--batch', batch, '--budget', '900', '--output', out);
    expect([written.code, written.stdout]).toEqual([0, '']);
    expect(fs.readFileSync(out, 'utf8')).toBe(r.stdout);
  });
});

describe('validate', () => {
  it('accepts what compile produced and rejects a tampered copy', async () => {
    const request = requestWith('qualification-trap', 480);
    const candidates = caseFile('qualification-trap', 'candidates');
    const compiled = JSON.parse((await cli(...compileArgs(request, candidates))).stdout);
    const args = (f: string) => ['validate', '--compilation', f, ...inputFlags(request, candidates)];
    const good = await cli(...args(write('good.json', compiled)));
    expect([good.code, good.stdout]).toEqual([0, 'valid\n']);
    // Remove one member of the required group from the bundle.
    const items = compiled.bundle.items.filter((i: { id: string }) => i.id !== 'exception-tenant');
    const tampered = {
      ...compiled,
      bundle: { ...compiled.bundle, items, layout_trace: items.map((i: { id: string }) => i.id) },
    };
    const bad = await cli(...args(write('tampered.json', tampered)));
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('INVALID legal: required group partially admitted: mig-result');
  });
});

describe('conformance and trace', () => {
  it('conformance --json reports 42 cases and no mismatch', async () => {
    const r = await cli('conformance', '--json');
    expect(r.code).toBe(0);
    const o = JSON.parse(r.stdout);
    expect([o.cases, o.mismatches, o.details.length]).toEqual([42, 0, 42]);
  });

  it('trace prints one row per candidate with the decision columns', async () => {
    const r = await cli('trace', 'dependency-trap', '--budget', '1400');
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[2]).toMatch(
      /^blocking\s+candidate\s+decision\s+reason\s+detail\s+class\s+relevance\s+marginal\s+before\s+after\s+dependencies\s+position$/,
    );
    const rows = lines.slice(4);
    expect(rows).toHaveLength(6);
    expect(rows.find((l) => l.trim().startsWith('ref-cheap'))).toMatch(
      /ADMITTED\s+admitted\s+discretionary-greedy .* 0\.9000\s+20\s+1,300\s+630\s+resolver-tool\s+2$/,
    );
  });

  it('trace shows the blocking candidates of a refusal first, the one never reached included', async () => {
    const r = await cli('trace', 'mandatory-overflow', '--budget', 'tight');
    const rows = r.stdout.trim().split('\n').slice(4);
    expect(rows[0]).toMatch(/^yes\s+mand-b\s+-\s+not-reached\s/);
    const json = JSON.parse((await cli('trace', 'mandatory-overflow', '--budget', 'tight', '--json')).stdout);
    expect([json.outcome, json.blocking, json.not_reached]).toEqual(['refusal', ['mand-b'], ['mand-b']]);
    expect(json.failure.reason).toBe('INSUFFICIENT_BUDGET');
    expect(json.entries.map((e: { candidate_id: string }) => e.candidate_id)).toEqual(['mand-a']);
  });

  it('trace names the gate that rejected a candidate, whatever the strategy', async () => {
    for (const strategy of ['compiler', 'exact', 'gated', 'oracle', 'compiler-v2']) {
      const json = JSON.parse(
        (await cli('trace', 'wrong-scope', '--budget', 'tight', '--strategy', strategy, '--json')).stdout,
      );
      const entry = json.entries.find((e: { candidate_id: string }) => e.candidate_id === 'scope-out');
      expect([entry.decision, entry.reason_code], strategy).toEqual(['REJECTED_HARD', 'scope_ineligible']);
    }
  });

  it('trace refuses an unknown case or budget with exit 2', async () => {
    expect((await cli('trace', 'no-such-case', '--budget', 'tight')).code).toBe(2);
    expect((await cli('trace', 'dependency-trap', '--budget', 'huge')).code).toBe(2);
  });
});

describe('the installed bin', () => {
  it('is plain JavaScript that runs the built CLI', () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'bin/ctxbench.js'), '--version'], {
      encoding: 'utf8',
    });
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect([r.status, r.stdout.trim()]).toEqual([0, pkg.version]);
  });
});
