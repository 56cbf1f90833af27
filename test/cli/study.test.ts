import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { caseFlags, cli, corpusCopy } from '../helpers/cli.js';
import { CORPUS_DIR, ROOT } from '../helpers/corpus.js';
import { tempDir } from '../helpers/temp.js';

// The process boundary is not what this file is about: strategies answer in this thread.
vi.mock('../../src/harness/hosts/hosts.js', () => import('../helpers/in-thread-hosts.js'));

const tmp = tempDir('study');

const read = (dir: string) =>
  Object.fromEntries(
    fs
      .readdirSync(dir)
      .sort()
      .map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]),
  );

describe('study writes a run folder that reruns byte for byte', () => {
  const out = path.join(tmp, 'run');

  it('writes the seven files and prints the headline table', async () => {
    const r = await cli('study', '--strategies', 'dump,compiler', '--out', out);
    expect(r.code).toBe(0);
    expect(Object.keys(read(out))).toEqual([
      'compilations.jsonl',
      'manifest.json',
      'report.html',
      'report.md',
      'rows.csv',
      'rows.jsonl',
      'summary.json',
    ]);
    // The headline: one aligned line per strategy, within 100 columns; progress on stderr ends in one line.
    const table = r.stdout
      .split('\n')
      .slice(2)
      .filter((l) => l !== '');
    expect(table.map((l) => l.split(/\s+/)[0])).toEqual([
      'strategy',
      expect.stringMatching(/^-+$/),
      'dump',
      'compiler',
    ]);
    for (const line of table) expect(line.length).toBeLessThanOrEqual(100);
    expect(r.stderr).toMatch(/^study: 84 compilations in [\d.]+ m?s\n$/);
    expect(fs.readFileSync(path.join(out, 'rows.jsonl'), 'utf8').trim().split('\n')).toHaveLength(84);
  });

  it('--format json prints the headline as data, and --quiet shows no progress', async () => {
    const r = await cli(
      'study',
      '--strategies',
      'dump,compiler',
      '--out',
      `${out}-json`,
      '--format',
      'json',
      '--quiet',
    );
    expect(r.stderr).toBe('');
    // Under json stdout holds the table alone; the line naming the folder went to stderr, quieted.
    const headline = JSON.parse(r.stdout);
    const rows = fs
      .readFileSync(path.join(`${out}-json`, 'rows.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    for (const name of ['dump', 'compiler']) {
      const own = rows.filter((x) => x.strategy === name);
      const line = headline.find((h: { strategy: string }) => h.strategy === name);
      expect(line.correct).toBe(own.filter((x) => x.status_correct).length);
      expect(line.refusals).toBe(own.filter((x) => !x.success).length);
      expect(line.tokens).toBe(own.reduce((t, x) => t + x.rendered_tokens, 0));
    }
  });

  it('refuses to overwrite without --force, and --force gives the same bytes but the manifest', async () => {
    const first = read(out);
    const again = await cli('study', '--strategies', 'dump,compiler', '--out', out);
    expect(again.code).toBe(2);
    expect((await cli('study', '--strategies', 'dump,compiler', '--out', out, '--force')).code).toBe(0);
    const second = read(out);
    for (const f of Object.keys(first)) if (f !== 'manifest.json') expect(second[f], f).toBe(first[f]);
  });

  it('report regenerates the same reports from the rows alone', async () => {
    const before = read(out);
    const elsewhere = path.join(tmp, 'regenerated');
    expect((await cli('report', out, '--out', elsewhere)).code).toBe(0);
    const after = read(elsewhere);
    for (const f of ['report.md', 'report.html', 'summary.json', 'rows.csv'])
      expect(after[f], f).toBe(before[f]);
  });
});

describe('verify', () => {
  it('passes the full reference run and fails a tampered one, listing the difference', async () => {
    const out = path.join(tmp, 'full');
    expect((await cli('study', '--out', out)).code).toBe(0);
    const ok = await cli('verify', out);
    expect(ok.code).toBe(0);
    const rows = fs.readFileSync(path.join(out, 'rows.jsonl'), 'utf8').split('\n');
    rows[4] = (rows[4] as string).replace('"rendered_tokens":265', '"rendered_tokens":266');
    fs.writeFileSync(path.join(out, 'rows.jsonl'), rows.join('\n'));
    const bad = await cli('verify', out);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('budget-slack/tight/compiler: rendered_tokens: ours 266, published 265');
  });

  it('a different policy changes the compiler’s rows, and verify says so', async () => {
    const p = path.join(tmp, 'loose-policy.json');
    const policy = JSON.parse(fs.readFileSync(path.join(CORPUS_DIR, 'compiler-policy-v1.json'), 'utf8'));
    fs.writeFileSync(p, JSON.stringify({ ...policy, min_discretionary_relevance: 0.1 }));
    const out = path.join(tmp, 'loose');
    expect((await cli('study', '--strategies', 'compiler', '--policy', p, '--out', out)).code).toBe(0);
    const v = await cli('verify', out);
    expect(v.code).toBe(1);
    expect(v.stdout).toMatch(/budget-slack\/roomy\/compiler: /);
  });
});

describe('a run that cannot start writes nothing and exits 2 naming the file', () => {
  const attempt = async (dir: string, ...extra: string[]) => {
    const out = path.join(tmp, `out-${path.basename(dir)}`);
    const r = await cli('study', '--corpus', dir, '--out', out, ...extra);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(fs.existsSync(out)).toBe(false);
    return r.stderr;
  };

  it('a case without its request', async () => {
    const dir = corpusCopy(tmp, 'no-request');
    fs.rmSync(path.join(dir, 'wrong-scope.request.json'));
    expect(await attempt(dir)).toContain('wrong-scope.request.json');
  });

  it('a budget manifest naming an unknown case', async () => {
    const dir = corpusCopy(tmp, 'unknown-case');
    const m = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
    m.budgets['no-such-case'] = { tight: 1, medium: 2, roomy: 3 };
    fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(m));
    expect(await attempt(dir)).toMatch(/manifest\.json: no-such-case: /);
  });

  it('a ledger for an unknown identity', async () => {
    const dir = corpusCopy(tmp, 'unknown-identity');
    const file = path.join(dir, 'ledger', 'wrong-scope.truth.json');
    const t = JSON.parse(fs.readFileSync(file, 'utf8'));
    t.identity_truth.phantom = { eval_class: 'must', min_representation: 'full' };
    fs.writeFileSync(file, JSON.stringify(t));
    expect(await attempt(dir)).toContain('wrong-scope.truth.json: phantom: ');
  });

  it('an unknown strategy name', async () => {
    expect(await attempt(CORPUS_DIR, '--strategies', 'dump,nope')).toMatch(
      /unknown strategy "nope" \(known: dump/,
    );
  });
});

describe('trace and compile with any strategy', () => {
  it('trace dependency-trap --budget 1400 prints the six-row decision trace', async () => {
    const r = await cli('trace', 'dependency-trap', '--budget', '1400');
    expect(r.stdout.trim().split('\n').slice(4)).toHaveLength(6);
    const topk = await cli('trace', 'dependency-trap', '--budget', '900', '--strategy', 'topk');
    expect(topk.stdout).toMatch(/^dependency-trap at 900 tokens \(topk\)/);
  });

  it('compile --strategy oracle needs --ledger', async () => {
    const args = ['compile', ...caseFlags('wrong-scope'), '--strategy', 'oracle'];
    expect((await cli(...args)).code).toBe(2);
    const r = await cli(...args, '--ledger', path.join(ROOT, 'ledger/compiler-v1/wrong-scope.truth.json'));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).bundle.layout_trace).toEqual(['instr-1', 'taskreq-1', 'good-evidence']);
  });

  it('strategies --json lists name, description and a boolean readsLedger', async () => {
    const list = JSON.parse((await cli('strategies', '--json')).stdout);
    expect(list.slice(0, 6).map((s: { name: string }) => s.name)).toEqual([
      'dump',
      'topk',
      'weighted',
      'gated',
      'compiler',
      'oracle',
    ]);
    for (const s of list) expect(typeof s.readsLedger).toBe('boolean');
  });
});
