import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bufferIo } from '../../../src/cli/io.js';
import { run } from '../../../src/cli/main.js';
import { measure } from '../../../src/harness/bench/bench-processes.js';
import type { readBaseline } from '../../../src/harness/bench/index.js';
import { cli, corpusCopy } from '../../helpers/cli.js';
import { expectMarkdownTable, parseCsv, textTables } from '../../helpers/tables.js';
import { tempDir } from '../../helpers/temp.js';

/** One task's timing as a bench file holds it. */
type BenchRecord = ReturnType<typeof readBaseline>['tasks'][number];

const tmp = tempDir('bench');

/** The reference corpus cut down to one case, to keep every real tinybench run here tiny. */
const oneCase = corpusCopy(tmp, 'one-case', (dir) => {
  const keep = 'budget-slack';
  for (const f of fs.readdirSync(dir)) {
    if ((f.endsWith('.request.json') || f.endsWith('.candidates.json')) && !f.startsWith(`${keep}.`))
      fs.rmSync(path.join(dir, f));
  }
  for (const f of fs.readdirSync(path.join(dir, 'ledger')))
    if (!f.startsWith(`${keep}.`)) fs.rmSync(path.join(dir, 'ledger', f));
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
  manifest.budgets = { [keep]: manifest.budgets[keep] };
  if (manifest.expected) manifest.expected = { [keep]: manifest.expected[keep] };
  fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
});
const tiny = ['bench', '--corpus', oneCase, '--strategies', 'dump', '--sizes', '20', '--time', '5'];
const FINAL = /^benchmarked 3 tasks \(5 ms of samples each\) in [0-9.]+ m?s\n$/;

describe('ctxbench bench', () => {
  it('saves a run, and against a baseline exits 1 on a changed outcome only', async () => {
    const saved = path.join(tmp, 'bench.json');
    const first = await cli(...tiny, '--save', saved);
    expect(first.code).toBe(0);
    // Not a terminal: no progress while timing, one final line.
    expect(first.stderr).toMatch(FINAL);
    const file = JSON.parse(fs.readFileSync(saved, 'utf8'));
    expect(file.tasks.map((t: BenchRecord) => t.name)).toEqual([
      'dump budget-slack',
      'study one-case',
      'dump @20',
    ]);
    // Outcomes are the subject here, not timings: the baseline's times are made a minute longer,
    // so that no load on the machine can make this run a slow-down.
    file.tasks = file.tasks.map((t: BenchRecord) => ({
      ...t,
      median_ms: t.median_ms + 60_000,
      p75_ms: t.p75_ms + 60_000,
    }));
    // A task this run no longer has: listed, not a failure. Then a changed outcome: a failure.
    file.tasks.push({ ...file.tasks[0], name: 'dump retired-case' });
    const extra = path.join(tmp, 'extra.json');
    fs.writeFileSync(extra, JSON.stringify(file));
    const withExtra = await cli(...tiny, '--baseline', extra, '--quiet');
    expect(withExtra.code).toBe(0);
    expect(withExtra.stdout).toMatch(/^dump retired-case .* only in the baseline$/m);
    expect(withExtra.stdout).toMatch(/^3 tasks compared: .*; 1 only in the baseline, not compared$/m);
    expect(withExtra.stdout.split('\n')[0]).toContain('baseline ms');
    expect(withExtra.stdout).toMatch(/^3 tasks compared: 0 slower, 0 outcomes changed/m);
    expect(withExtra.stderr).toBe('');

    file.tasks[0].outcome = 'refusal SOMETHING_ELSE';
    const tampered = path.join(tmp, 'tampered.json');
    fs.writeFileSync(tampered, JSON.stringify(file));
    const again = await cli(...tiny, '--baseline', tampered);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('regression: dump budget-slack: outcome changed');
    expect(again.stderr).not.toContain('retired-case');
  });

  it('with peers and others: the study without the peers too, and the ratio of the two medians', async () => {
    const args = ['bench', '--corpus', oneCase, '--sizes', '20', '--time', '5', '--quiet'];
    const mixed = path.join(tmp, 'mixed.json');
    const r = await cli(...args, '--strategies', 'dump,priompt', '--save', mixed);
    expect(r.code).toBe(0);
    const tasks = JSON.parse(fs.readFileSync(mixed, 'utf8')).tasks as BenchRecord[];
    const study = tasks.find((t) => t.name === 'study one-case') as BenchRecord;
    const without = tasks.find((t) => t.name === 'study one-case without peers') as BenchRecord;
    // Different rows, so different digests: the second study really left priompt out.
    expect(without.outcome).toMatch(/^rows [0-9a-f]{64}$/);
    expect(without.outcome).not.toBe(study.outcome);
    const [, w, wo, ratio] = /without them: ([\d.,]+) ms \/ ([\d.,]+) ms = ([\d.]+)x/.exec(r.stdout) ?? [];
    expect(Number(w?.replace(/,/g, ''))).toBeCloseTo(study.median_ms, 3);
    expect(Number(wo?.replace(/,/g, ''))).toBeCloseTo(without.median_ms, 3);
    expect(Number(ratio)).toBeCloseTo(study.median_ms / without.median_ms, 2);
    // Peers alone, or none: nothing to compare, no second study.
    for (const only of ['dump', 'priompt']) {
      const alone = await cli(...args, '--strategies', only);
      expect(alone.stdout, only).not.toContain('without peers');
      expect(alone.stdout, only).not.toContain('without them');
    }
  });

  it('--format: the timings as csv, json or md; the line after a comparison to stderr', async () => {
    const text = await cli(...tiny, '--quiet');
    const [table] = textTables(text.stdout);
    const names = ['dump budget-slack', 'study one-case', 'dump @20'];
    expect(table?.rows.map((r) => r[0])).toEqual(names);
    // Milliseconds to three places in text; each run times anew, so only the shape is compared.
    for (const r of table?.rows ?? []) expect(r[1]).toMatch(/^\d[\d,]*\.\d{3}$/);
    const csv = parseCsv((await cli(...tiny, '--quiet', '--format', 'csv')).stdout);
    expect(csv[0]).toEqual(table?.headers);
    expect(csv.slice(1).map((r) => r[0])).toEqual(names);
    for (const r of csv.slice(1)) expect(Number(r[1])).toBeGreaterThan(0);
    const json = JSON.parse((await cli(...tiny, '--quiet', '--format', 'json')).stdout);
    expect(json.map((r: { task: string }) => r.task)).toEqual(names);
    expect(typeof json[0]['median ms']).toBe('number');
    expectMarkdownTable((await cli(...tiny, '--quiet', '--format', 'md')).stdout);

    const saved = path.join(tmp, 'for-format.json');
    expect((await cli(...tiny, '--quiet', '--save', saved)).code).toBe(0);
    // As above: a baseline no loaded machine can be slower than, so that nothing is flagged.
    const file = JSON.parse(fs.readFileSync(saved, 'utf8'));
    for (const t of file.tasks) t.median_ms += 60_000;
    fs.writeFileSync(saved, JSON.stringify(file));
    const against = await cli(...tiny, '--baseline', saved, '--format', 'csv');
    expect(parseCsv(against.stdout)[0]).toEqual([
      'task',
      'baseline ms',
      'current ms',
      'diff ms',
      'ratio',
      'flag above ms',
      'verdict',
    ]);
    expect(against.stderr).toMatch(/\n3 tasks compared: /);
    expect((await cli(...tiny, '--baseline', saved, '--format', 'csv', '--quiet')).stderr).toBe('');
  });

  it('on a terminal shows one updating line, and nothing with --quiet', async () => {
    const io = bufferIo({ isTTY: true });
    expect(await run(tiny, io)).toBe(0);
    const updates = io.stderr.split('\r').filter((s) => s.trim() !== '');
    expect(updates.slice(0, 3).map((s) => s.trimEnd())).toEqual([
      'bench 0/3 done, timing dump budget-slack',
      'bench 1/3 done, timing study one-case',
      'bench 2/3 done, timing dump @20',
    ]);
    expect(updates[3]).toMatch(FINAL);
    expect(updates).toHaveLength(4);

    for (const isTTY of [true, false]) {
      const quiet = bufferIo({ isTTY });
      expect(await run([...tiny, '--quiet'], quiet)).toBe(0);
      expect(quiet.stderr).toBe('');
      expect(quiet.stdout).toContain('dump @20');
    }
  });
});

describe('bench --processes', () => {
  const node = (code: string) => ['-e', code];
  it('times a heavier command as the heavier, pair by pair, and a failing one as failing', () => {
    // 300 ms of CPU against none: A/B in CPU is above 1 on any machine, however loaded. The loop
    // counts its own CPU time, not the clock, and no assertion rests on wall time, which a loaded
    // machine can stretch for either command.
    const busy = node('while (process.cpuUsage().user < 300_000) {}');
    const r = measure({ name: 'study', what: 'busy / idle', a: busy, b: node('0'), bar: 1, by: 'cpu' }, 2);
    expect(r.runs).toBe(2);
    expect(r.wall_ratio).toBeGreaterThan(0);
    expect(r.a_wall_ms).toBeGreaterThanOrEqual(300);
    // Where the system tells CPU time, the ratio and the bar are read from it.
    if (r.cpu_ratio !== null) {
      expect(r.cpu_ratio).toBeGreaterThan(1);
      expect(r.within).toBe(false);
    }
    expect(r.failures).toEqual([]);
    const failing = measure(
      { name: 'exact10k', what: 'exits 3', a: node('process.exit(3)'), b: null, bar: 60, by: 'wall' },
      1,
    );
    expect(failing.b_wall_ms).toBeNull();
    expect(failing.wall_ratio).toBeNull();
    expect(failing.failures).toEqual(['A exited 3']);
    expect(failing.within).toBe(false);
  });

  it('names an unknown pair and exits 2', async () => {
    const r = await cli('bench', '--processes', 'study6,nope');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /--processes: nope is none of study6, study, study6-help, compile100k, exact10k, pack, pack-warm, all/,
    );
  });
});
