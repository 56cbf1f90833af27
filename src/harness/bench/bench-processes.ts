/**
 * Whole-process comparisons: a ctxbench command against a yardstick run on the same machine in
 * the same minute (the study's floor, `ctxbench --help`, a bare JSON.parse of the same file),
 * alternated A B A B so that drift in the machine's speed falls on both, each ratio taken pair by
 * pair and the median quoted. These are the bars of issues 22 and 39; an absolute time (exact at
 * 10,000 candidates) is quoted alone; `pack` is timed against repomix on the same tree. Timing starts a process from outside, so it counts what a user waits for: Node's start,
 * loading modules, strategy processes, writing the run folder.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median } from 'simple-statistics';
import { defaultPolicy } from '../../compiler/index.js';
import { generateCase } from '../generate/index.js';
import { pickStrategies, processCount } from '../hosts/index.js';
import { jsonText } from '../output/index.js';
import { fromRoot } from '../paths.js';
import type { Table } from '../report/index.js';
import { PUBLISHED_ORDER } from '../vocabulary.js';
import { packSides } from './bench-pack.js';

export const PROCESS_PAIRS = [
  'study6',
  'study',
  'study6-help',
  'compile100k',
  'exact10k',
  'pack',
  'pack-warm',
] as const;
export type ProcessPair = (typeof PROCESS_PAIRS)[number];

export interface ProcessRecord {
  readonly name: ProcessPair;
  readonly what: string;
  readonly runs: number;
  readonly a_wall_ms: number;
  /** The yardstick's median; null for a bar in seconds. */
  readonly b_wall_ms: number | null;
  /** Median of the pairwise ratios A/B, by wall time and (where the system tells) by CPU time. */
  readonly wall_ratio: number | null;
  readonly cpu_ratio: number | null;
  /** The bar: a ratio, or for exact a number of seconds. */
  readonly bar: number;
  /** Which ratio the bar is on. */
  readonly by: 'wall' | 'cpu';
  readonly within: boolean;
  /** Every non-zero exit, as `command: code`: a failing command's time would mean nothing. */
  readonly failures: readonly string[];
}

interface Timed {
  readonly wall: number;
  readonly cpu: number | null;
  readonly code: number | null;
}

const TICKS = 100;

/**
 * CPU seconds of this process's finished children, from Linux's /proc (user and system time of
 * reaped children, in clock ticks of 1/100 s); null where there is no /proc.
 */
function childrenCpu(): number | null {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[13]) + Number(f[14])) / TICKS;
  } catch {
    return null;
  }
}

function timed(argv: readonly string[]): Timed {
  const cpu0 = childrenCpu();
  const t0 = performance.now();
  const r = spawnSync(process.execPath, argv, { stdio: 'ignore' });
  const wall = performance.now() - t0;
  const cpu1 = childrenCpu();
  return { wall, cpu: cpu0 === null || cpu1 === null ? null : (cpu1 - cpu0) * 1000, code: r.status };
}

/** Two commands (Node's arguments) and the bar between them; with no B, a bar in seconds. */
export interface Pair {
  readonly name: ProcessPair;
  readonly what: string;
  readonly a: readonly string[];
  readonly b: readonly string[] | null;
  readonly bar: number;
  /** Which ratio the bar is on: CPU for the studies, whose floor is CPU spent (issue 39). */
  readonly by: 'wall' | 'cpu';
}

/**
 * How to make each pair, over a scratch folder holding the generated pools and the run folders:
 * made only when chosen, since a pool of 100,000 candidates takes seconds to generate.
 */
function pairMakers(
  scratch: string,
  seed: string,
  tree: string | undefined,
): Record<ProcessPair, () => Pair> {
  const cli = fromRoot('bin/ctxbench.js');
  const help = [cli, '--help'];
  const six = [...PUBLISHED_ORDER];
  const all = undefined;
  /** A study of `names` (every registered strategy when undefined) in a run folder of its own. */
  const study = (names: readonly string[] | undefined, out: string): string[] => [
    cli,
    'study',
    ...(names === undefined ? [] : ['--strategies', names.join(',')]),
    ...['--out', path.join(scratch, out), '--force', '--quiet'],
  ];
  const studyPair = (
    name: ProcessPair,
    names: readonly string[] | undefined,
    b: readonly string[],
    bar: number,
    what: string,
  ): Pair => ({ name, what, a: study(names, name), b, bar, by: 'cpu' });
  return {
    // Issue 52's bar study-speed: the six within 2x their floor, the default study within 1.5x.
    study6: () => studyPair('study6', six, floor(six), 2, 'the six published strategies / their floor'),
    study: () =>
      studyPair('study', all, floor(all), 1.5, 'the default study (every registered strategy) / its floor'),
    'study6-help': () =>
      studyPair('study6-help', six, help, 3, 'the six published strategies / ctxbench --help'),
    compile100k: () => {
      const pool = writePool(scratch, 100_000, seed);
      const file = path.join(pool.dir, 'candidates.json');
      return {
        name: 'compile100k',
        what: 'compile 100,000 candidates (a bundle) / JSON.parse of the same file',
        a: [...compileArgs(cli, pool, 'roomy'), '--output', path.join(scratch, 'out-100k.json')],
        b: ['-e', `JSON.parse(require('node:fs').readFileSync(${JSON.stringify(file)}, 'utf8'))`],
        bar: 3,
        by: 'wall',
      };
    },
    exact10k: () => ({
      name: 'exact10k',
      what: 'exact, proven optimal, on 10,000 candidates (seconds)',
      a: [
        ...compileArgs(cli, writePool(scratch, 10_000, seed), 'medium'),
        '--strategy',
        'exact',
        '--output',
        path.join(scratch, 'out-10k.json'),
      ],
      b: null,
      bar: 10,
      by: 'wall',
    }),
    pack: () => ({ name: 'pack', ...packSides(scratch, tree, false), bar: 1, by: 'wall' }),
    'pack-warm': () => ({ name: 'pack-warm', ...packSides(scratch, tree, true), bar: 1, by: 'wall' }),
  };
}

/**
 * The floor of a study of `names`: the vocabularies and one bare locked process for each process
 * its strategies run in (bench/floor-process.ts).
 */
const floor = (names: readonly string[] | undefined): string[] => [
  fromRoot('dist/src/harness/bench/floor-process.js'),
  String(processCount(pickStrategies(names))),
];

interface Pool {
  readonly dir: string;
  readonly budgets: ReturnType<typeof generateCase>['budgets'];
}

/**
 * A compile of a generated pool at one of its budgets: the compile bar is on a success path, so
 * at the roomy budget, where the compiler returns a bundle; exact's at the medium one, the
 * request's own, where the budget binds.
 */
const compileArgs = (cli: string, p: Pool, budget: keyof Pool['budgets']): string[] => [
  cli,
  'compile',
  ...['request', 'candidates', 'policy'].flatMap((f) => [`--${f}`, path.join(p.dir, `${f}.json`)]),
  '--budget',
  String(p.budgets[budget]),
];

/** A generated pool of `size` candidates, written into the scratch folder. */
function writePool(scratch: string, size: number, seed: string): Pool {
  const dir = path.join(scratch, `pool-${size}`);
  const g = generateCase(`${seed}-${size}`, size, `${seed}-${size}`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'request.json'), jsonText(g.request));
  fs.writeFileSync(path.join(dir, 'candidates.json'), jsonText({ candidates: g.candidates }));
  fs.writeFileSync(path.join(dir, 'policy.json'), jsonText(defaultPolicy()));
  return { dir, budgets: g.budgets };
}

/**
 * Run the chosen pairs `runs` times each after one warm-up of each side, alternating. `say`
 * hears which pair is running.
 */
export function runProcessPairs(
  chosen: readonly ProcessPair[],
  options: {
    readonly runs: number;
    readonly seed: string;
    readonly say: (line: string) => void;
    /** The tree `pack` and `pack-warm` are timed on (default: a copy of src/ and test/). */
    readonly tree?: string | undefined;
  },
): ProcessRecord[] {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxbench-processes-'));
  try {
    const make = pairMakers(scratch, options.seed, options.tree);
    return PROCESS_PAIRS.filter((name) => chosen.includes(name)).map((name) => {
      const p = make[name]();
      options.say(`timing ${p.name}: ${p.what}, ${options.runs} runs`);
      return measure(p, options.runs);
    });
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** One pair timed: a warm-up of each side, then `runs` alternations. */
export function measure(p: Pair, runs: number): ProcessRecord {
  timed(p.a);
  if (p.b !== null) timed(p.b);
  const as: Timed[] = [];
  const bs: Timed[] = [];
  for (let k = 0; k < runs; k++) {
    as.push(timed(p.a));
    if (p.b !== null) bs.push(timed(p.b));
  }
  const ratios = (f: (t: Timed) => number | null): number | null => {
    if (bs.length === 0) return null;
    const rs = as.map((a, k) => {
      const x = f(a);
      const y = f(bs[k] as Timed);
      return x === null || y === null || y <= 0 ? null : x / y;
    });
    return rs.every((r) => r !== null) ? median(rs as number[]) : null;
  };
  const aWall = median(as.map((t) => t.wall));
  const wallRatio = ratios((t) => t.wall);
  const cpuRatio = ratios((t) => t.cpu);
  const barRatio = p.by === 'cpu' ? cpuRatio : wallRatio;
  const failures = [...as.map((t) => ['A', t] as const), ...bs.map((t) => ['B', t] as const)]
    .filter(([, t]) => t.code !== 0)
    .map(([side, t]) => `${side} exited ${t.code}`);
  return {
    name: p.name,
    what: p.what,
    runs,
    a_wall_ms: aWall,
    b_wall_ms: bs.length === 0 ? null : median(bs.map((t) => t.wall)),
    wall_ratio: wallRatio,
    cpu_ratio: cpuRatio,
    bar: p.bar,
    by: p.by,
    within: failures.length === 0 && (barRatio === null ? aWall / 1000 < p.bar : barRatio <= p.bar),
    failures: [...new Set(failures)],
  };
}

export function processTable(records: readonly ProcessRecord[]): Table {
  return {
    headers: ['pair', 'A ms', 'B ms', 'A/B wall', 'A/B cpu', 'bar', 'within'],
    rows: records.map((r) => [
      r.name,
      r.a_wall_ms,
      r.b_wall_ms,
      r.wall_ratio,
      r.cpu_ratio,
      r.b_wall_ms === null ? `< ${r.bar} s` : `${r.bar}x ${r.by}`,
      r.failures.length > 0 ? `no: ${r.failures.join(', ')}` : r.within ? 'yes' : 'no',
    ]),
    kinds: [undefined, 'ms', 'ms', 'factor', 'factor', undefined, undefined],
    align: ['left', 'right', 'right', 'right', 'right', 'right', 'left'],
  };
}
