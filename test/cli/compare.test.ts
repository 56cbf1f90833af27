import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { cli, corpusCopy } from '../helpers/cli.js';
import { CORPUS_DIR } from '../helpers/corpus.js';
import { expectMarkdownTable, parseCsv, textTables } from '../helpers/tables.js';
import { tempDir } from '../helpers/temp.js';

// The process boundary is not what this file is about: strategies answer in this thread.
vi.mock('../../src/harness/hosts/hosts.js', () => import('../helpers/in-thread-hosts.js'));

const tmp = tempDir('compare');

type RowJson = Record<string, unknown> & { case: string; budget: string; strategy: string };

const rowsOf = (dir: string): RowJson[] =>
  fs
    .readFileSync(path.join(dir, 'rows.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as RowJson);

const idOf = (r: RowJson) => `${r.case}/${r.budget}/${r.strategy}`;

/**
 * The compilations both runs hold whose rows differ in any of `fields` (all when omitted), found
 * by comparing the rows' JSON here, not by the code under test.
 */
function differing(a: string, b: string, fields?: readonly string[]): string[] {
  const theirs = new Map(rowsOf(b).map((r) => [idOf(r), r]));
  return rowsOf(a)
    .filter((r) => {
      const o = theirs.get(idOf(r));
      if (o === undefined) return false;
      const pick = (x: RowJson) => JSON.stringify(fields === undefined ? x : fields.map((f) => x[f]));
      return pick(r) !== pick(o);
    })
    .map(idOf);
}

/** A row without what lies beside its bundle: the strategy's extras and the objective it reports. */
const bundleAndScores = (r: RowJson): RowJson => {
  const { extras: _extras, audit, ...rest } = r;
  const { objective: _objective, ...kept } = (audit ?? {}) as Record<string, unknown>;
  return { ...rest, audit: kept } as RowJson;
};

/** Of the differing compilations, those whose bundle or scores moved, and those where only extras or the objective did. */
function changedAndBeside(a: string, b: string): { changed: string[]; beside: string[] } {
  const theirs = new Map(rowsOf(b).map((r) => [idOf(r), bundleAndScores(r)]));
  const changed = new Set(
    rowsOf(a)
      .filter((r) => {
        const o = theirs.get(idOf(r));
        return o !== undefined && JSON.stringify(bundleAndScores(r)) !== JSON.stringify(o);
      })
      .map(idOf),
  );
  const all = differing(a, b);
  return { changed: all.filter((id) => changed.has(id)), beside: all.filter((id) => !changed.has(id)) };
}

const occurrences = (text: string, word: string) => text.split(word).length - 1;

const study = async (out: string, ...args: string[]) => {
  const r = await cli('study', '--out', out, ...args);
  expect(r.code, r.stderr).toBe(0);
  return out;
};

const base = path.join(tmp, 'base');
const loose = path.join(tmp, 'loose');
const subset = path.join(tmp, 'subset');
const fewer = path.join(tmp, 'fewer');

beforeAll(async () => {
  const policy = JSON.parse(fs.readFileSync(path.join(CORPUS_DIR, 'compiler-policy-v1.json'), 'utf8'));
  const p = path.join(tmp, 'loose-policy.json');
  fs.writeFileSync(p, JSON.stringify({ ...policy, min_discretionary_relevance: 0.1 }));
  // wrong-scope removed: its request, candidates, budgets and truth.
  const corpus = corpusCopy(tmp, 'fewer-corpus', (dir) => {
    for (const f of [
      'wrong-scope.request.json',
      'wrong-scope.candidates.json',
      'ledger/wrong-scope.truth.json',
    ])
      fs.rmSync(path.join(dir, f));
    const m = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
    for (const key of Object.keys(m)) if (m[key]?.['wrong-scope'] !== undefined) delete m[key]['wrong-scope'];
    fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(m));
  });
  await study(base, '--strategies', 'dump,compiler');
  await study(loose, '--strategies', 'dump,compiler', '--policy', p);
  await study(subset, '--strategies', 'compiler,oracle');
  await study(fewer, '--strategies', 'dump,compiler', '--corpus', corpus);
  // Four small studies: each about a second alone, more on a busy machine.
});

describe('compare two runs', () => {
  it('a run against itself: nothing changed, exit 0 even with --fail-on-change', async () => {
    const r = await cli('compare', base, base, '--fail-on-change');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('compare: nothing changed: 0 of 84 compilations');
    expect(r.stdout).not.toContain('changed compilations');
    const j = JSON.parse((await cli('compare', base, base, '--json')).stdout);
    expect(j.compilations).toEqual({ shared: 84, changed: 0, extras_only: 0 });
    expect(j.changes).toEqual([]);
  });

  it('another policy: exactly the compilations whose rows differ, each once, with old → new', async () => {
    const { changed: expected, beside } = changedAndBeside(base, loose);
    expect(expected.length).toBeGreaterThan(0);
    // The looser floor moves the objective dump reports, never its bundle: not a change.
    expect(beside.length).toBeGreaterThan(0);
    const r = await cli('compare', base, loose);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe(
      `compare: ${expected.length} of 84 compilations changed; ${beside.length} more differ in extras or objective only (listed below)`,
    );
    // The policy field that differs is named, as the two policies differ here and nowhere else.
    expect(lines).toContain(
      'different policies: the manifests of A and B differ in min_discretionary_relevance',
    );
    const listedUnder = (heading: string) => {
      const from = lines.indexOf(heading);
      const to = lines.indexOf('', from);
      return from < 0 ? [] : lines.slice(from + 1, to).map((l) => l.split(':')[0]);
    };
    expect(listedUnder('changed compilations (A → B):')).toEqual(expected);
    expect(
      listedUnder('same bundle and scores, extras or objective changed (not counted as changed):'),
    ).toEqual(beside);
    // Each compilation whose tokens moved says so with both figures, as the rows hold them.
    const before = new Map(rowsOf(base).map((x) => [idOf(x), x]));
    for (const after of rowsOf(loose)) {
      const was = before.get(idOf(after));
      if (was === undefined || was.rendered_tokens === after.rendered_tokens) continue;
      const line = lines.find((l) => l.startsWith(`${idOf(after)}: `));
      const tokens = (x: RowJson) => (x.rendered_tokens as number).toLocaleString('en-US');
      expect(line).toContain(`rendered_tokens ${tokens(was)} → ${tokens(after)}`);
    }
    expect((await cli('compare', base, loose, '--fail-on-change')).code).toBe(1);
  });

  it('--json: one document, the same changes and the headline deltas as the rows sum them', async () => {
    const r = await cli('compare', base, loose, '--json');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    const ids = j.changes.map((c: RowJson) => idOf(c));
    const { changed, beside } = changedAndBeside(base, loose);
    expect(ids).toEqual(changed);
    expect(j.extras_only.map((c: RowJson) => idOf(c))).toEqual(beside);
    expect(j.compilations).toEqual({ shared: 84, changed: changed.length, extras_only: beside.length });
    expect(j.policy_fields).toEqual(['min_discretionary_relevance']);
    const tokens = (dir: string, s: string) =>
      rowsOf(dir)
        .filter((x) => x.strategy === s)
        .reduce((n, x) => n + (x.rendered_tokens as number), 0);
    const distractors = (dir: string, s: string) =>
      rowsOf(dir)
        .filter((x) => x.strategy === s)
        .reduce((n, x) => n + ((x.distractor_admission as number | null) ?? 0), 0);
    for (const s of ['dump', 'compiler']) {
      const d = j.headline.find((h: { strategy: string }) => h.strategy === s);
      expect(d.delta.rendered_tokens).toBe(tokens(loose, s) - tokens(base, s));
      expect(d.delta.distractor).toBe(distractors(loose, s) - distractors(base, s));
      expect(d.changed).toBe(ids.filter((id: string) => id.endsWith(`/${s}`)).length);
    }
  });

  it('--format: the headline table alone on stdout; csv and json give before, after and delta as numbers', async () => {
    const text = await cli('compare', base, loose);
    const [table] = textTables(text.stdout);
    expect(table?.rows.map((r) => r[0])).toEqual(['dump', 'compiler']);
    // A figure that moved reads `A → B (delta)`, one that held the figure alone.
    expect(table?.rows.flat().some((c) => / → .* \([+-]/.test(c))).toBe(true);
    const csv = await cli('compare', base, loose, '--format', 'csv');
    // What surrounds the table in text went to stderr, the table's heading included.
    expect(csv.stderr).toBe(text.stdout.slice(0, text.stdout.indexOf('\nstrategy ') + 1));
    const json = JSON.parse((await cli('compare', base, loose, '--format', 'json')).stdout);
    expect(json.map((r: { strategy: string }) => r.strategy)).toEqual(['dump', 'compiler']);
    expect(json[0].compilations).toBe(42);
    // CSV and JSON hold one table: the same fields, the same values.
    const [headers, ...rows] = parseCsv(csv.stdout);
    expect(headers).toEqual(Object.keys(json[0]));
    expect(
      rows.map((r) => r.map((f) => (f === '' ? null : Number.isNaN(Number(f)) ? f : Number(f)))),
    ).toEqual(json.map((o: object) => Object.values(o)));
    // Each figure is three numbers whatever moved, and each text cell reads from them: the
    // figure alone when it held, else before → after (delta).
    const [textHeaders, ...textRows] = [table?.headers ?? [], ...(table?.rows ?? [])];
    let moved = 0;
    for (const [k, row] of textRows.entries()) {
      for (const [col, name] of textHeaders.entries()) {
        if (['strategy', 'compilations', 'changed'].includes(name)) continue;
        const [before, after, delta] = ['before', 'after', 'delta'].map((side) => json[k][`${name} ${side}`]);
        for (const v of [before, after, delta]) expect(typeof v, `${name}`).toBe('number');
        expect(Math.abs(delta - (after - before)), name).toBeLessThan(1e-4);
        const shown = row[col] as string;
        if (shown.includes('→')) {
          moved++;
          const [b, a] = shown.split(/ → | \(/).map((x) => Number(x.replace(/,/g, '')));
          expect([b, a], name).toEqual([before, after]);
        } else expect(Number(shown.replace(/,/g, '')), name).toBeCloseTo(before, 4);
      }
    }
    expect(moved).toBeGreaterThan(0);
    expectMarkdownTable((await cli('compare', base, loose, '--format', 'md')).stdout);
    expect((await cli('compare', base, loose, '--json', '--format', 'md')).code).toBe(2);
  });

  it('a strategy on one side only is named once, not as its compilations', async () => {
    const r = await cli('compare', base, subset, '--fail-on-change');
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n')[0]).toBe(
      'compare: 0 of 42 compilations changed; strategies only in A: dump; strategies only in B: oracle',
    );
    expect(occurrences(r.stdout, 'dump')).toBe(1);
    expect(occurrences(r.stdout, 'oracle')).toBe(1);
    const j = JSON.parse((await cli('compare', base, subset, '--json')).stdout);
    expect(j.a.only).toEqual({ strategies: ['dump'], cases: [], compilations: [] });
    expect(j.b.only).toEqual({ strategies: ['oracle'], cases: [], compilations: [] });
    expect(j.headline.map((h: { strategy: string }) => h.strategy)).toEqual(['compiler']);
  });

  it('another corpus: said in one line, the case it lacks named once, the rest compared', async () => {
    const r = await cli('compare', base, fewer);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    const expected = differing(base, fewer);
    expect(lines[0]).toBe(
      `compare: ${expected.length} of 78 compilations changed; cases only in A: wrong-scope`,
    );
    expect(lines.filter((l) => l.startsWith('different corpora: '))).toHaveLength(1);
    expect(occurrences(r.stdout, 'wrong-scope')).toBe(1);
    const j = JSON.parse((await cli('compare', fewer, base, '--json')).stdout);
    expect(j.same_corpus).toBe(false);
    expect(j.b.only.cases).toEqual(['wrong-scope']);
    expect(j.compilations.shared).toBe(78);
  });

  it('bad input: exit 2, one line naming the file, no stack trace', async () => {
    const broken = path.join(tmp, 'broken');
    fs.mkdirSync(broken);
    const rows = fs.readFileSync(path.join(base, 'rows.jsonl'), 'utf8').split('\n');
    rows[2] = (rows[2] as string).replace(/"must_recall":[^,]+/, '"must_recall":"all"');
    fs.writeFileSync(path.join(broken, 'rows.jsonl'), rows.join('\n'));
    const cases: [string[], RegExp][] = [
      [[path.join(tmp, 'nowhere'), base], /nowhere: no such folder$/],
      [[base, CORPUS_DIR], /compiler-v1[/\\]rows\.jsonl: no rows\.jsonl: not a run folder$/],
      [[base, broken], /broken[/\\]rows\.jsonl: row 3: invalid must_recall$/],
      [[base], /name two run folders, or one with --strategies a,b/],
    ];
    for (const [args, message] of cases) {
      const r = await cli('compare', ...args);
      expect(r.code).toBe(2);
      const err = r.stderr.trim().split('\n');
      expect(err).toHaveLength(1);
      expect(err[0]).toMatch(message);
      expect(r.stdout).toBe('');
    }
  });
});

/** C(n, k) / 2^n summed for k <= m, twice, at most 1: McNemar's exact p, written here from its definition. */
function exactP(aOnly: number, bOnly: number): number {
  const n = aOnly + bOnly;
  let tail = 0;
  let choose = 1;
  for (let k = 0; k <= Math.min(aOnly, bOnly); k++) {
    tail += choose / 2 ** n;
    choose = (choose * (n - k)) / (k + 1);
  }
  return n === 0 ? 1 : Math.min(1, 2 * tail);
}

describe('compare: paired tests', () => {
  const tests = ['--strategies', 'dump,compiler', '--table', 'tests', '--format', 'json'];
  it('two strategies of one run, paired by case and budget: McNemar on correct as the rows count it', async () => {
    const r = await cli('compare', base, ...tests);
    expect(r.code, r.stderr).toBe(0);
    const correct = (JSON.parse(r.stdout) as Record<string, unknown>[]).find(
      (t) => t.figure === 'status_correct',
    );
    // From rows.jsonl here: each case and budget's dump row against its compiler row.
    const rows = rowsOf(base);
    const at = (s: string) =>
      new Map(rows.filter((x) => x.strategy === s).map((x) => [`${x.case}/${x.budget}`, x]));
    const [dump, compiler] = [at('dump'), at('compiler')];
    let aOnly = 0;
    let bOnly = 0;
    for (const [cell, d] of dump) {
      const c = compiler.get(cell) as RowJson;
      if (d.status_correct === true && c.status_correct === false) aOnly++;
      if (d.status_correct === false && c.status_correct === true) bOnly++;
    }
    expect(aOnly + bOnly).toBeGreaterThan(0);
    expect(correct).toMatchObject({ strategy: 'dump vs compiler', cells: dump.size, differ: aOnly + bOnly });
    expect(correct?.p as number).toBeCloseTo(exactP(aOnly, bOnly), 10);
    expect(correct?.significant).toBe(String(exactP(aOnly, bOnly) < 0.05));
    // The same seed gives the same bytes; the seed is said.
    const again = await cli('compare', base, ...tests);
    expect(again.stdout).toBe(r.stdout);
    expect(r.stderr).toContain('seed compare');
  });

  it('the text lists the figures that differ somewhere, after the headline, with intervals', async () => {
    const r = await cli('compare', base, loose);
    const tables = textTables(r.stdout);
    expect(tables).toHaveLength(2);
    const tests = tables[1];
    expect(tests?.headers.slice(0, 4)).toEqual(['strategy', 'figure', 'cells', 'differ']);
    // Every listed figure differs in some cell, and backs its significance with an interval or p.
    for (const row of tests?.rows ?? []) {
      expect(Number(row[3])).toBeGreaterThan(0);
      expect(row[7]).toMatch(/^\[.*, .*\]$/);
    }
  });

  it('--html: the report page of both runs, each strategy as (A) and (B), every cell its own compilation', async () => {
    const page = path.join(tmp, 'both.html');
    const r = await cli('compare', base, loose, '--html', page);
    expect(r.code, r.stderr).toBe(0);
    const html = fs.readFileSync(page, 'utf8');
    const json = /<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html)?.[1] ?? '';
    const cells = JSON.parse(json).cells as {
      id: string;
      strategy: string;
      detail: { bundle: { items: unknown[][] } | null } | null;
    }[];
    // Every compilation both hold, from A and from B, in A's order with B's after A's.
    const a = rowsOf(base);
    const b = new Map(rowsOf(loose).map((x) => [idOf(x), x]));
    const shared = a.filter((x) => b.has(idOf(x)));
    expect(cells.map((c) => c.id)).toEqual(
      shared.flatMap((x) => [
        `${x.case}/${x.budget}/${x.strategy} (A)`,
        `${x.case}/${x.budget}/${x.strategy} (B)`,
      ]),
    );
    // Each cell's bundle is its own side's: the ids the rows admitted, in order.
    for (const [k, c] of cells.entries()) {
      const row = (k % 2 === 0 ? shared[k / 2] : b.get(idOf(shared[(k - 1) / 2] as RowJson))) as RowJson;
      const ids = (c.detail?.bundle?.items ?? []).map((item) => item[1]);
      expect(ids, c.id).toEqual(row.success ? row.admitted : []);
    }
    // Two strategies of one run: that run's page of the two.
    const two = path.join(tmp, 'two.html');
    expect((await cli('compare', base, '--strategies', 'dump,compiler', '--html', two)).code).toBe(0);
    expect(fs.readFileSync(two, 'utf8')).toContain('<title>Comparison: dump and compiler in');
    // The page is refused where it would overwrite an input.
    expect((await cli('compare', base, loose, '--html', path.join(base, 'rows.jsonl'))).code).toBe(2);
  });

  it('bad usage: --strategies with two runs, a strategy the run lacks, one run alone', async () => {
    for (const args of [
      [base, loose, '--strategies', 'dump,compiler'],
      [base, '--strategies', 'dump,nosuch'],
      [base, '--strategies', 'dump'],
      [base],
    ]) {
      const r = await cli('compare', ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
  });
});

describe('verify judges only what the run holds', () => {
  it('a strategy subset passes and names the published strategies it judged', async () => {
    const r = await cli('verify', base);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe(
      'verify: judging dump, compiler: 2 of the 6 published strategies (not in the run: topk, weighted, gated, oracle)',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^verify: every published row of dump, compiler reproduced \(84 rows; /);
  });

  it('a run of a generated corpus is said plainly not to be of the published corpus', async () => {
    const corpus = path.join(tmp, 'generated');
    expect(
      (await cli('generate', '--seed', 'cmp', '--candidates', '10', '--cases', '1', '--out', corpus)).code,
    ).toBe(0);
    const out = await study(
      path.join(tmp, 'generated-run'),
      '--strategies',
      'dump,compiler',
      '--corpus',
      corpus,
    );
    const r = await cli('verify', out);
    expect(r.code).toBe(1);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(
      /^verify: not the published corpus: the run is of .*, the published run of compiler-v1 \(14 cases, digest [0-9a-f]{12}\); they share no case, so no row was judged$/,
    );
    expect(lines[2]).toBe('verify: not verified: the run is not of the published corpus');
  });

  it('a corpus with a case removed: said so, and the cases it shares judged', async () => {
    const r = await cli('verify', fewer);
    expect(r.code).toBe(1);
    const lines = r.stdout.trim().split('\n');
    expect(lines[1]).toMatch(
      /^verify: not the published corpus: .*; only the 13 cases both hold are judged$/,
    );
    expect(lines[2]).toBe(
      'verify: not verified: the run is not of the published corpus (the 78 rows judged agree)',
    );
    expect(r.stdout).not.toContain('row missing');
  });

  it('--published takes a run folder: judged field by field against its rows', async () => {
    const same = await cli('verify', base, '--published', base);
    expect(same.code).toBe(0);
    expect(same.stdout.split('\n')[0]).toBe('verify: judging all 2 published strategies: dump, compiler');
    // What verify compares: outcome, tokens, hash, admitted set and the study's metrics (not the
    // audit or the extras), named here from the run folder contract.
    const fields = [
      ...['success', 'reason', 'budget_tokens', 'rendered_tokens', 'bundle_hash', 'admitted'],
      ...['status_correct', 'budget_compliant', 'must_recall', 'should_recall', 'must_total', 'should_total'],
      ...['precision', 'distractor_admission', 'harmful_admission', 'illegal_admission', 'scope_violations'],
      ...['freshness_violations', 'authority_violations', 'floor_violations', 'dependency_violations'],
      ...['group_violations', 'under_admission', 'over_admission', 'budget_slack'],
    ];
    const expected = new Set(differing(loose, base, fields));
    expect(expected.size).toBeGreaterThan(0);
    const r = await cli('verify', loose, '--published', base);
    expect(r.code).toBe(1);
    const named = new Set(
      r.stdout
        .split('\n')
        .filter((l) => /^[a-z-]+\/[a-z]+\/[a-z-]+: /.test(l))
        .map((l) => l.split(':')[0]),
    );
    expect(named).toEqual(expected);
    const sub = await cli('verify', base, '--published', subset);
    expect(sub.code).toBe(0);
    expect(sub.stdout.split('\n')[0]).toBe(
      'verify: judging compiler: 1 of the 2 published strategies (not in the run: oracle)',
    );
  });

  it('a run of none of the published strategies, or a published folder of neither kind', async () => {
    const other = path.join(tmp, 'renamed');
    fs.mkdirSync(other);
    const renamed = rowsOf(base).map((x) => JSON.stringify({ ...x, strategy: `my-${x.strategy}` }));
    fs.writeFileSync(path.join(other, 'rows.jsonl'), `${renamed.join('\n')}\n`);
    const none = await cli('verify', other);
    expect(none.code).toBe(1);
    expect(none.stdout).toBe(
      `verify: nothing to verify: ${other} holds none of the published strategies (dump, topk, weighted, gated, compiler, oracle)\n`,
    );
    const bad = await cli('verify', base, '--published', CORPUS_DIR);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /^ctxbench: .*compiler-v1: not a published run: neither rows\.jsonl .* nor results\.json .*\n$/,
    );
  });
});
