/**
 * Runs that can be finished: a real study process is stopped (SIGTERM, SIGINT) or killed
 * (SIGKILL) part way, at several points and job counts. A stop ends cleanly with one line that
 * says how to resume; `--resume` continues from the finished cells and ends byte-identical to a
 * run never stopped; a run without it removes what the killed one left.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { listStrategies } from '../../src/harness/hosts/index.js';
import { cli, sourceArgs } from '../helpers/cli.js';
import { ROOT } from '../helpers/corpus.js';
import { tempDir } from '../helpers/temp.js';
import { FULL } from '../helpers/tier.js';

// The run stopped is a process of its own, strategy processes and all; the runs that resume it
// and the baseline are about the run folder, so in them strategies answer in this thread.
vi.mock('../../src/harness/hosts/hosts.js', () => import('../helpers/in-thread-hosts.js'));

const tmp = tempDir('kill');
/**
 * A run long enough that a signal sent after the 90th row still finds it running, even on a
 * loaded machine: under test:full every registered strategy on the reference corpus, each
 * starting its own process; by default three strategies (three processes, not thirteen) on a
 * generated corpus of 60 cases, about as many cells.
 */
const NAMES = FULL ? listStrategies().map((s) => s.name) : ['dump', 'topk', 'compiler'];
const GENERATED = path.join(tmp, 'corpus');
const CORPUS = FULL ? [] : ['--corpus', GENERATED];
const STRATEGIES = [...CORPUS, '--strategies', NAMES.join(',')];
const CELLS = (FULL ? 14 : 60) * 3 * NAMES.length;
const FILES = ['rows.jsonl', 'compilations.jsonl', 'rows.csv', 'summary.json', 'report.md', 'report.html'];

const read = (dir: string) =>
  Object.fromEntries(FILES.map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]));
const lines = (file: string) =>
  fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').length - 1 : 0;

let baseline: Record<string, string> = {};
beforeAll(async () => {
  if (!FULL) {
    const args = ['--seed', 'kill', '--candidates', '12', '--cases', '60', '--out', GENERATED, '--quiet'];
    expect((await cli('generate', ...args)).code).toBe(0);
  }
  const out = path.join(tmp, 'baseline');
  expect((await cli('study', ...STRATEGIES, '--out', out)).code).toBe(0);
  baseline = read(out);
  expect(lines(path.join(out, 'rows.jsonl'))).toBe(CELLS);
});

/** A study in a process of its own, from the sources; its output collected. */
function start(out: string, extra: readonly string[] = []) {
  const child = spawn(process.execPath, sourceArgs('study', ...STRATEGIES, '--out', out, ...extra), {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  const ended = new Promise<{ code: number | null; signal: string | null; stderr: string }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, stderr })),
  );
  return { child, ended };
}

/** Wait until the partial folder holds `n` finished rows; false if the run ended first. */
async function rowsReach(child: ChildProcess, out: string, n: number): Promise<boolean> {
  const file = `${out}.partial/rows.jsonl`;
  for (;;) {
    if (child.exitCode !== null) return false;
    if (lines(file) >= n) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A clean stop and a kill, each at more than one job; the first cell too under test:full. */
const POINTS = [
  ['SIGINT', 40, '2'],
  ['SIGKILL', 90, '3'],
  ...(FULL
    ? ([
        ['SIGTERM', 1, '1'],
        ['SIGKILL', 1, '1'],
      ] as const)
    : []),
] as const;

/** What a killed run left, kept aside by the first SIGKILL point for the tests that start from one. */
const SPARE = path.join(tmp, 'spare-killed.partial');

/**
 * `out`.partial as a killed run leaves it, with at least `n` rows: a copy of the one kept aside
 * (no process to start), or one killed here when that point did not run.
 */
async function killedAt(out: string, n: number): Promise<void> {
  if (fs.existsSync(SPARE) && lines(`${SPARE}/rows.jsonl`) >= n) {
    fs.cpSync(SPARE, `${out}.partial`, { recursive: true });
    return;
  }
  const run = start(out);
  expect(await rowsReach(run.child, out, n)).toBe(true);
  run.child.kill('SIGKILL');
  await run.ended;
}

describe.each(POINTS)('%s after %i rows at --jobs %s', (signal, at, jobs) => {
  const out = path.join(tmp, `${signal}-${at}-${jobs}`);
  let stopped: { code: number | null; signal: string | null; stderr: string };
  let kept = 0;

  beforeAll(async () => {
    const run = start(out, ['--jobs', jobs]);
    expect(await rowsReach(run.child, out, at)).toBe(true);
    run.child.kill(signal);
    stopped = await run.ended;
    kept = lines(`${out}.partial/rows.jsonl`);
    if (signal === 'SIGKILL' && !fs.existsSync(SPARE))
      fs.cpSync(`${out}.partial`, SPARE, { recursive: true });
  });

  it('leaves no complete-looking folder, only the partial one', () => {
    expect(fs.existsSync(out)).toBe(false);
    expect(fs.existsSync(`${out}.partial`)).toBe(true);
    expect(kept).toBeGreaterThanOrEqual(at);
    expect(kept).toBeLessThan(CELLS);
  });

  if (signal !== 'SIGKILL') {
    it('stops cleanly with exit 128 + n and one line saying how to resume', () => {
      expect(stopped.code).toBe(signal === 'SIGINT' ? 130 : 143);
      const said = stopped.stderr.trim().split('\n');
      expect(said).toHaveLength(1);
      expect(said[0]).toMatch(new RegExp(`stopped by ${signal} after ${kept} of ${CELLS} compilations`));
      expect(said[0]).toMatch(
        /resume with: ctxbench study (--corpus \S+ )?--strategies \S+ --out \S+ --jobs \d --resume$/,
      );
      expect(fs.existsSync(`${out}.partial/.owner`)).toBe(false);
    });
  } else {
    it('was killed outright, its partial folder still naming the dead owner', () => {
      expect(stopped.signal).toBe('SIGKILL');
      expect(fs.existsSync(`${out}.partial/.owner`)).toBe(true);
    });
  }

  it('--resume keeps the finished cells and ends byte-identical to a run never stopped', async () => {
    const r = await cli('study', ...STRATEGIES, '--out', out, '--jobs', jobs, '--resume');
    expect(r.code, r.stderr).toBe(0);
    const said = /(\d+) of (\d+) compilations kept/.exec(r.stderr);
    expect(Number(said?.[1])).toBe(kept);
    expect(read(out)).toEqual(baseline);
    expect(fs.existsSync(`${out}.partial`)).toBe(false);
  });
});

describe('leftovers and mismatches', () => {
  it('a run without --resume removes what a killed run left and starts afresh', async () => {
    const out = path.join(tmp, 'afresh');
    await killedAt(out, 30);
    expect(lines(`${out}.partial/rows.jsonl`)).toBeGreaterThanOrEqual(30);
    const r = await cli('study', ...STRATEGIES, '--out', out);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/kept/);
    expect(read(out)).toEqual(baseline);
    expect(fs.readdirSync(tmp).filter((f) => f.startsWith('afresh'))).toEqual(['afresh']);
  });

  it('--resume refuses a partial run made with other strategies or another timeout, and keeps it', async () => {
    const out = path.join(tmp, 'mismatch');
    const run = start(out);
    expect(await rowsReach(run.child, out, 10)).toBe(true);
    run.child.kill('SIGTERM');
    // 128 + 15: SIGTERM's own code, checked here as the default run stops with SIGINT above.
    expect((await run.ended).code).toBe(143);
    const before = fs.readFileSync(`${out}.partial/rows.jsonl`, 'utf8');
    const other = await cli('study', ...CORPUS, '--strategies', 'dump,compiler', '--out', out, '--resume');
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/cannot resume .*mismatch: it was started with another strategies/);
    const slower = await cli('study', ...STRATEGIES, '--out', out, '--timeout', '60000', '--resume');
    expect(slower.stderr).toMatch(/another timeout/);
    expect(fs.readFileSync(`${out}.partial/rows.jsonl`, 'utf8')).toBe(before);
  });

  it('--resume cuts a torn last line and a row whose compilation never made it to disk', async () => {
    const out = path.join(tmp, 'torn');
    await killedAt(out, 20);
    const rows = `${out}.partial/rows.jsonl`;
    const compilations = `${out}.partial/compilations.jsonl`;
    const n = Math.min(lines(rows), lines(compilations));
    // A row whose compilation was lost, then half of the next row.
    const keep = fs
      .readFileSync(compilations, 'utf8')
      .split('\n')
      .slice(0, n - 1);
    fs.writeFileSync(compilations, `${keep.join('\n')}\n{"case":"cut`);
    fs.appendFileSync(rows, '{"case":"half a row');
    const r = await cli('study', ...STRATEGIES, '--out', out, '--resume');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`: ${n - 1} of ${CELLS} compilations kept`));
    expect(read(out)).toEqual(baseline);
  });
});
