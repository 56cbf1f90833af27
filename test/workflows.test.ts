/**
 * The scale-out definitions, read as GitHub and Kubernetes read them and run here where one
 * machine can: the swe-bench workflow's slice and merge jobs (their `run:` steps in bash as the
 * runner runs them, `bash -e -o pipefail`, in one workspace, where download-artifact would put
 * each slice's folders), and the Indexed Job's pods (their scripts, JOB_COMPLETION_INDEX set as the
 * cluster sets it). `git clone` is answered from the fixture's repositories. Either way the merged
 * run must be one ingest and study of the whole, byte for byte.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from './helpers/corpus.js';
import { folderBytes } from './helpers/corpus-files.js';
import { jsonLines, makeSweFixture, type SweFixture } from './helpers/swe-fixture.js';
import { tempDir } from './helpers/temp.js';
import { FULL } from './helpers/tier.js';

type Step = { readonly run?: string; readonly uses?: string; readonly with?: Record<string, unknown> };
type Job = {
  readonly needs?: string;
  readonly steps: readonly Step[];
  readonly strategy?: { matrix: Record<string, unknown> };
};
type Pod = { readonly env: readonly { name: string; value: string }[]; readonly args: readonly string[] };
type K8sJob = {
  spec: {
    completionMode?: string;
    completions?: number;
    parallelism?: number;
    template: { spec: { containers: Pod[] } };
  };
};

const read = (file: string) => parse(fs.readFileSync(path.join(ROOT, file), 'utf8'));
const swe = read('.github/workflows/swe-bench.yml') as {
  on: { workflow_dispatch: { inputs: Record<string, { default: string }> } };
  jobs: Record<string, Job>;
};
const { slice, merge } = swe.jobs as { slice: Job; merge: Job };
const slices = read('deploy/kubernetes/swe-bench-slices.yaml') as K8sJob;
const merger = read('deploy/kubernetes/swe-bench-merge.yaml') as K8sJob;
const pod = (j: K8sJob) => j.spec.template.spec.containers[0] as Pod;
const envOf = (p: Pod) => Object.fromEntries(p.env.map((e) => [e.name, e.value]));
/** The steps that run here: all but the install, done already. */
const runs = (job: Job) =>
  job.steps.flatMap((s) => (s.run === undefined || s.run === 'npm ci' ? [] : [s.run]));

describe('the scale-out definitions', () => {
  it('the workflow: a matrix of slice jobs, each uploading its folders, and a merge job that needs them all', () => {
    expect(swe.on.workflow_dispatch.inputs.shards?.default).toBe('10');
    expect(slice.strategy?.matrix.shard).toBe('${{ fromJSON(needs.plan.outputs.shards) }}');
    expect(merge.needs).toBe('slice');
    const upload = slice.steps.find((s) => s.uses?.startsWith('actions/upload-artifact'));
    expect(String(upload?.with?.path).trim().split('\n')).toEqual([
      'corpora/slice-${{ matrix.shard }}',
      'runs/slice-${{ matrix.shard }}',
    ]);
    const download = merge.steps.find((s) => s.uses?.startsWith('actions/download-artifact'));
    expect(download?.with).toEqual({ pattern: 'slice-*', 'merge-multiple': true });
    // What runs here runs as written: no expression GitHub would fill in first.
    for (const r of [...runs(slice), ...runs(merge)]) expect(r).not.toContain('${{');
  });

  it('the Indexed Job: one pod a slice, all at once, the merge told the same count', () => {
    expect(slices.spec.completionMode).toBe('Indexed');
    const n = slices.spec.completions;
    expect(slices.spec.parallelism).toBe(n);
    expect(envOf(pod(slices)).SHARDS).toBe(String(n));
    expect(envOf(pod(merger)).SHARDS).toBe(String(n));
  });

  it('the nightly full tier: jobs that each take their share of the test files', () => {
    const { full } = (read('.github/workflows/full.yml') as { jobs: { full: Job } }).jobs;
    const shards = full.strategy?.matrix.shard as number[];
    expect(shards).toEqual(shards.map((_, k) => k + 1));
    expect(runs(full)).toContain(`npm run test:full -- --shard=\${{ matrix.shard }}/${shards.length}`);
  });
});

describe.skipIf(process.env.CTXBENCH_DIST_CURRENT !== '1')('the scale-out definitions, run here', () => {
  const tmp = tempDir('scale-out');
  const SELECT = '--repo acme/widgets,acme/gadgets';
  let fx: SweFixture;
  let env: NodeJS.ProcessEnv;
  /** Rows and corpus of one machine's ingest and study of the whole. */
  let one: string;

  const bash = (script: string, cwd: string, more: Record<string, string> = {}) => {
    const r = spawnSync('bash', ['--noprofile', '--norc', '-e', '-o', 'pipefail', '-c', script], {
      cwd,
      env: { ...env, ...more },
      encoding: 'utf8',
    });
    expect(r.status, `${script}\n${r.stderr}`).toBe(0);
  };
  const sameAsOne = (corpus: string, run: string) => {
    expect(folderBytes(corpus)).toEqual(folderBytes(path.join(one, 'swe-bench')));
    expect(fs.readFileSync(path.join(run, 'rows.jsonl'), 'utf8')).toBe(
      fs.readFileSync(path.join(one, 'run/rows.jsonl'), 'utf8'),
    );
  };

  beforeAll(() => {
    fx = makeSweFixture(path.join(tmp, 'fixture'));
    const records = path.join(tmp, 'instances.jsonl');
    fs.writeFileSync(records, jsonLines(fx.records));
    // `git clone ... https://github.com/OWNER/NAME.git DEST` from the fixture's folder of that repository.
    const shims = path.join(tmp, 'shims');
    fs.mkdirSync(shims);
    const git = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
    const shim = [
      '#!/bin/bash',
      'args=()',
      'for a in "$@"; do',
      '  case "$a" in https://github.com/*) n="${a#https://github.com/}"; n="${n%.git}"; a="FIXTURE/${n/\\//__}"; [ -d "$a" ] || a="FIXTURE/$n";; esac',
      '  args+=("$a")',
      'done',
      `exec ${git} "\${args[@]}"`,
    ];
    fs.writeFileSync(path.join(shims, 'git'), `${shim.join('\n').replaceAll('FIXTURE', fx.repos)}\n`, {
      mode: 0o755,
    });
    // The records of a repository no one can clone are left out, as a user selects.
    env = {
      ...process.env,
      PATH: `${shims}:${process.env.PATH}`,
      RECORDS: records,
      SELECT,
      SHARDS: '3',
      STRATEGIES: 'topk',
    };
    one = path.join(tmp, 'one');
    fs.mkdirSync(one);
    const ctxbench = `node ${path.join(ROOT, 'bin/ctxbench.js')}`;
    bash(
      `${ctxbench} ingest --swe-bench "$RECORDS" --repos ${fx.repos} $SELECT --out swe-bench --quiet`,
      one,
    );
    bash(`${ctxbench} study --corpus swe-bench --out run --strategies topk --quiet`, one);
  });

  it('the workflow: three slice jobs clone what their slice reads, ingest and study it; merged and validated, they are one ingest and study', () => {
    // The runner's checkout: the project's files, in a workspace of its own.
    const ws = path.join(tmp, 'workspace');
    fs.mkdirSync(ws);
    for (const f of ['bin', 'scripts', 'dist', 'node_modules', 'package.json'])
      fs.symlinkSync(path.join(ROOT, f), path.join(ws, f));
    const cloned: string[][] = [];
    for (const i of ['1', '2', '3']) {
      // Each slice job on a runner of its own: its clones are its own.
      fs.rmSync(path.join(tmp, 'repos'), { recursive: true, force: true });
      for (const r of runs(slice)) bash(r, ws, { I: i, SLICE: `${i}/3` });
      cloned.push(fs.readdirSync(path.join(tmp, 'repos')).sort());
    }
    // Five instances in ingest order, gadgets-7 then widgets-1 to 4, two slices to a repository.
    expect(cloned).toEqual([['acme__gadgets'], ['acme__widgets'], ['acme__widgets']]);
    for (const r of runs(merge)) bash(r, ws);
    sameAsOne(path.join(ws, 'corpora/swe-bench'), path.join(ws, 'runs/swe-bench'));
  });

  // The same steps as the workflow's, spelled for a pod: the full tier's, to keep `npm test` short.
  it.skipIf(!FULL)(
    'the Indexed Job: three pods, JOB_COMPLETION_INDEX 0 to 2, on one volume; the merge pod joins them into one ingest and study',
    () => {
      const results = path.join(tmp, 'results');
      fs.mkdirSync(results);
      const podEnv = (p: Pod, more: Record<string, string>) => ({
        ...envOf(p),
        ...more,
        CTXBENCH: ROOT,
        SHARDS: '3',
        SELECT,
        STRATEGIES: 'topk',
        RECORDS: env.RECORDS as string,
      });
      for (const k of [0, 1, 2]) {
        const repos = path.join(tmp, `pod-${k}`);
        fs.mkdirSync(repos);
        bash(
          pod(slices).args[0] as string,
          results,
          podEnv(pod(slices), { JOB_COMPLETION_INDEX: String(k), REPOS: repos }),
        );
      }
      bash(pod(merger).args[0] as string, results, podEnv(pod(merger), {}));
      sameAsOne(path.join(results, 'corpora/swe-bench'), path.join(results, 'runs/swe-bench'));
    },
  );
});
