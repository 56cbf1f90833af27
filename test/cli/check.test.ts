/**
 * `ctxbench check` lists every problem and warning of a corpus or a file, one line each, then a
 * summary; the other commands stop at the first problem with the count of the rest, and print
 * warnings without changing what they compute, unless `--strict` makes them errors.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import {
  bundleToJSON,
  compileContext,
  readCandidate,
  readPolicy,
  readRequest,
  renderBundleText,
  resultToJSON,
} from '../../src/compiler/index.js';
import { checkCompilation, problemText } from '../../src/harness/audit/index.js';
import { auditTokens } from '../../src/harness/corpus/index.js';
import { jsonText } from '../../src/harness/output/index.js';
import { cli, corpusCopy, inputFlags } from '../helpers/cli.js';
import { CORPUS_DIR } from '../helpers/corpus.js';
import { tempDir } from '../helpers/temp.js';

// The process boundary is not what this file is about: strategies answer in this thread.
vi.mock('../../src/harness/hosts/hosts.js', () => import('../helpers/in-thread-hosts.js'));

const tmp = tempDir('check');
type Json = Record<string, unknown>;
const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));
const CASE = 'heterogeneous-basic';
const REQUEST = path.join(CORPUS_DIR, `${CASE}.request.json`);
const POLICY = path.join(CORPUS_DIR, 'compiler-policy-v1.json');
const pool = (): Json[] => readJson(path.join(CORPUS_DIR, `${CASE}.candidates.json`)).candidates;

let files = 0;
/** A pool written to a file of its own, changed by `change`. */
function poolFile(change: (c: Json[]) => void): string {
  const c = pool();
  change(c);
  const file = path.join(tmp, `pool-${++files}.candidates.json`);
  fs.writeFileSync(file, JSON.stringify({ candidates: c }));
  return file;
}

/**
 * What `compile` prints for these files, computed through the library without the lint: the
 * compiler's records, the rendered text, the validation, the real token counts, no extras.
 */
async function library(candidatesFile: string): Promise<string> {
  const inputs = {
    request: readRequest(readJson(REQUEST)),
    candidates: (readJson(candidatesFile).candidates as unknown[]).map((c) => readCandidate(c)),
    policy: readPolicy(readJson(POLICY)),
  };
  const { bundle, result } = compileContext(inputs.request, inputs.candidates, inputs.policy);
  const rendered_text = bundle ? renderBundleText(bundle, inputs.policy.frame) : null;
  const problems = checkCompilation({ bundle, result, rendered_text }, inputs).map(problemText);
  return jsonText({
    bundle: bundle ? bundleToJSON(bundle) : null,
    result: resultToJSON(result),
    rendered_text,
    validation: { valid: problems.length === 0, problems },
    real_tokens: rendered_text === null ? null : await auditTokens(rendered_text),
    extras: {},
  });
}

describe('check', () => {
  it('the reference corpus, its policy, manifest and ledger: clean', async () => {
    const r = await cli('check', CORPUS_DIR);
    expect([r.code, r.stdout, r.stderr]).toEqual([0, 'check: 14 cases, 0 problems, 0 warnings\n', '']);
  });

  it('a corpus with problems in every kind of file: each on a line, then the summary; exit 1', async () => {
    const dir = corpusCopy(tmp, 'broken', (d) => {
      const m = readJson(path.join(d, 'manifest.json'));
      delete m.expected['wrong-scope'];
      fs.writeFileSync(path.join(d, 'manifest.json'), JSON.stringify(m));
      const c = readJson(path.join(d, 'stale-cheap.candidates.json'));
      delete c.candidates[0].kind;
      c.candidates[1].order_role = 'toolz';
      fs.writeFileSync(path.join(d, 'stale-cheap.candidates.json'), JSON.stringify(c));
      const t = readJson(path.join(d, 'ledger', 'budget-slack.truth.json'));
      t.identity_truth.instr.eval_class = 'vital';
      fs.writeFileSync(path.join(d, 'ledger', 'budget-slack.truth.json'), JSON.stringify(t));
    });
    const r = await cli('check', dir);
    expect(r.code).toBe(1);
    const p = (f: string) => path.join(dir, f);
    expect(r.stdout.split('\n')).toEqual([
      `${p('manifest.json')}: wrong-scope: missing expected (need its outcome at each of {"tight", "medium", "roomy"}: {"success": true or false, "reason": a refusal reason or null})`,
      `${p('stale-cheap.candidates.json')}: candidates[0] "instr-1": missing kind`,
      `warning: ${p('stale-cheap.candidates.json')}: candidates[1] "taskreq-1": order_role: "toolz" is not among the policy's order_roles (instruction, task, state, evidence, support, tool); laid out last`,
      `${p('ledger/budget-slack.truth.json')}: instr: unsupported eval_class: "vital" (need must, should, optional, distractor or harmful)`,
      'check: 14 cases, 3 problems, 1 warning',
      '',
    ]);
    const json = await cli('check', dir, '--json');
    expect(json.code).toBe(1);
    const list = JSON.parse(json.stdout);
    expect(list.map((f: Json) => [f.severity, f.field])).toEqual([
      ['error', 'expected'],
      ['error', 'kind'],
      ['warning', 'order_role'],
      ['error', 'eval_class'],
    ]);
    expect(list[1]).toEqual({
      severity: 'error',
      file: p('stale-cheap.candidates.json'),
      record: 'candidates[0] "instr-1"',
      field: 'kind',
      message: 'missing kind',
    });
    // What check lists is what study stops on: the first problem, the others counted.
    const study = await cli(
      'study',
      '--corpus',
      dir,
      '--strategies',
      'dump',
      '--out',
      path.join(tmp, 'never'),
    );
    expect([study.code, study.stderr]).toEqual([
      2,
      `ctxbench: ${p('manifest.json')}: wrong-scope: missing expected (need its outcome at each of {"tight", "medium", "roomy"}: {"success": true or false, "reason": a refusal reason or null})\n`,
    ]);
    expect(fs.existsSync(path.join(tmp, 'never'))).toBe(false);
  });

  it('one pool: every problem, warnings apart; warnings alone exit 0, or 1 under --strict', async () => {
    const bad = poolFile((c) => {
      delete c[0]?.content_identity;
      Object.assign(c[2] as Json, { requirement: 'OPTIONAL' });
      Object.assign(c[3] as Json, { dependsOn: ['instr-1'] });
    });
    const r = await cli('check', bad);
    expect([r.code, r.stdout.split('\n')]).toEqual([
      1,
      [
        `${bad}: candidates[0] "instr-1": missing content_identity`,
        `${bad}: candidates[2] "rule-req": unsupported requirement: "OPTIONAL" (need MANDATORY, REQUIRED, PREFERRED or DISCRETIONARY)`,
        `warning: ${bad}: candidates[3] "mem-pref": dependsOn: unknown field (did you mean depends_on?)`,
        'check: 1 file, 2 problems, 1 warning',
        '',
      ],
    ]);
    const warned = poolFile((c) => Object.assign(c[3] as Json, { dependsOn: ['instr-1'] }));
    expect((await cli('check', warned)).code).toBe(0);
    const strict = await cli('check', warned, '--strict');
    expect([strict.code, strict.stdout.split('\n').at(-2)]).toEqual([
      1,
      'check: 1 file, 1 problem, 0 warnings',
    ]);
  });

  it('a batch file, line by line', async () => {
    const line = (candidates: unknown) =>
      JSON.stringify({ request: readJson(REQUEST), candidates, policy: readJson(POLICY) });
    const file = path.join(tmp, 'batch.jsonl');
    fs.writeFileSync(file, [line(pool()), '', line([{ candidate_id: 'x' }]), '{'].join('\n'));
    const r = await cli('check', file);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`^${file}:3: candidates\\[0\\] "x": missing content_identity\\n`));
    expect(r.stdout).toContain(`${file}:4: not valid JSON`);
    expect(r.stdout).toMatch(/check: 1 file, 15 problems, 0 warnings\n$/);
  });

  it('a path that is not there is exit 2', async () => {
    const r = await cli('check', path.join(tmp, 'nowhere'));
    expect([r.code, r.stderr]).toEqual([
      2,
      `ctxbench: ${path.join(tmp, 'nowhere')}: no such file or folder\n`,
    ]);
  });
});

describe('warnings change nothing, and stop under --strict', () => {
  const kinds: [string, (c: Json[]) => void, RegExp][] = [
    [
      'an unknown field',
      (c) => Object.assign(c[3] as Json, { dependsOn: ['instr-1'] }),
      /candidates\[3\] "mem-pref": dependsOn: unknown field \(did you mean depends_on\?\)$/,
    ],
    [
      'an order role the policy lacks',
      (c) => Object.assign(c[4] as Json, { order_role: 'toolz' }),
      /candidates\[4\] "tool-disc": order_role: "toolz" is not among the policy's order_roles .*; laid out last$/,
    ],
    [
      'relevance outside [0, 1]',
      (c) => Object.assign(c[5] as Json, { relevance: 1.5 }),
      /candidates\[5\] "anchor-disc": relevance: 1\.5 is outside \[0, 1\]$/,
    ],
    [
      'a fractional token count',
      (c) => Object.assign(c[6] as Json, { token_count: 44.5 }),
      /candidates\[6\] "scope-bad": token_count: 44\.5 is not a whole number of tokens$/,
    ],
  ];

  it.each(kinds)(
    '%s: one warning line; the compilation is what the library makes of the file',
    async (_, change, line) => {
      const file = poolFile(change);
      const r = await cli('compile', ...inputFlags(REQUEST, file));
      expect(r.code).toBe(0);
      const lines = r.stderr.split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(new RegExp(`^ctxbench: warning: ${file}: `));
      expect(lines[0]).toMatch(line);
      expect(r.stdout).toBe(await library(file));
      const strict = await cli('compile', ...inputFlags(REQUEST, file), '--strict');
      expect([strict.code, strict.stdout]).toEqual([2, '']);
      expect(strict.stderr).toMatch(new RegExp(`^ctxbench: ${file}: `));
      expect(strict.stderr.split('\n')).toHaveLength(2);
      expect(strict.stderr.trimEnd()).toMatch(line);
    },
  );

  it('an unknown field: the same bytes with and without it', async () => {
    const plain = await cli(
      'compile',
      ...inputFlags(
        REQUEST,
        poolFile(() => {}),
      ),
    );
    const extra = await cli(
      'compile',
      ...inputFlags(
        REQUEST,
        poolFile((c) => Object.assign(c[3] as Json, { dependsOn: ['instr-1'] })),
      ),
    );
    expect([plain.stderr, extra.stdout]).toEqual(['', plain.stdout]);
    expect(extra.stderr).not.toBe('');
  });

  it('study, validate and trace take --strict too', async () => {
    const dir = corpusCopy(tmp, 'warned', (d) => {
      const c = readJson(path.join(d, 'wrong-scope.candidates.json'));
      c.candidates[0].note = 'mine';
      fs.writeFileSync(path.join(d, 'wrong-scope.candidates.json'), JSON.stringify(c));
    });
    const warning = `ctxbench: warning: ${path.join(dir, 'wrong-scope.candidates.json')}: candidates[0] "instr-1": note: unknown field\n`;
    const loose = await cli('trace', 'wrong-scope', '--budget', 'tight', '--corpus', dir);
    expect([loose.code, loose.stderr]).toEqual([0, warning]);
    const strict = await cli('trace', 'wrong-scope', '--budget', 'tight', '--corpus', dir, '--strict');
    expect([strict.code, strict.stderr]).toEqual([2, warning.replace('warning: ', '')]);
    const out = path.join(tmp, 'strict-run');
    const study = await cli('study', '--corpus', dir, '--strategies', 'dump', '--out', out, '--strict');
    expect([study.code, study.stderr, fs.existsSync(out)]).toEqual([
      2,
      warning.replace('warning: ', ''),
      false,
    ]);
    const compiled = path.join(tmp, 'compiled.json');
    fs.writeFileSync(
      compiled,
      (
        await cli(
          'compile',
          ...inputFlags(
            REQUEST,
            poolFile(() => {}),
          ),
        )
      ).stdout,
    );
    const validate = await cli(
      'validate',
      '--compilation',
      compiled,
      ...inputFlags(
        REQUEST,
        poolFile(() => {}),
      ),
      '--strict',
    );
    expect([validate.code, validate.stdout]).toEqual([0, 'valid\n']);
  });
});
