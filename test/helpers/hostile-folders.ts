/**
 * Run folders whose manifest names a hostile corpus or ledger (issue 47): a run of one case made
 * once by the built bin, copied, its corpus copied and broken (a FIFO, a link to one or to
 * /dev/zero, a `/proc` folder), and the manifest pointed at it with the digests its author can
 * compute, so that a reader gets past the digest check to whatever the folder holds. Every
 * command runs in a child process with a time limit, so that a hang is caught, not waited out.
 */
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { oneCaseCorpus } from './cli.js';
import { ROOT } from './corpus.js';

/**
 * Far past what refusing a folder takes on a loaded machine (a fraction of a second), short of
 * waiting out a hang: a child still running then is killed, and the test says it did not end.
 */
const HANG_MS = 120_000;

/** What a command did: `ended` is false when it had to be killed. */
export interface Ran {
  readonly status: number | null;
  readonly ended: boolean;
  readonly stdout: string;
  readonly stderr: string;
}

/** The built bin, killed (SIGKILL: a thread blocked in open(2) runs no signal handler) if it hangs. */
export function bin(cwd: string, ...args: string[]): Ran {
  const r: SpawnSyncReturns<string> = spawnSync(
    process.execPath,
    [path.join(ROOT, 'bin/ctxbench.js'), ...args],
    {
      cwd,
      encoding: 'utf8',
      timeout: HANG_MS,
      killSignal: 'SIGKILL',
    },
  );
  return { status: r.status, ended: r.signal === null, stdout: r.stdout, stderr: r.stderr };
}

/**
 * A refusal as the contract has it: the command ended by itself with exit 2, nothing on stdout,
 * and one stderr line naming `file` first and saying `what`.
 */
export function refusedNaming(r: Ran, file: string, what: string | RegExp): void {
  expect(r.ended, 'ended by itself').toBe(true);
  expect([r.status, r.stdout]).toEqual([2, '']);
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]?.startsWith(`ctxbench: ${file}: `), lines[0]).toBe(true);
  expect(lines[0]).toMatch(what);
}

/** A FIFO at `file`: Node makes none itself. */
export function fifo(file: string): string {
  const r = spawnSync('mkfifo', [file], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`mkfifo ${file}: ${r.stderr}`);
  return file;
}

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/**
 * The digest a manifest's author computes of a folder's regular files (links and everything not a
 * regular file left out), SHA-256 over `<file> <sha256>\n` sorted by name and the blob index: what
 * the digest before issue 47 took of a folder whose other entries are FIFOs, devices or links to
 * them, so a manifest holding it got past the digest check.
 */
export function regularFilesDigest(dir: string): string {
  const regular = (f: string) => fs.lstatSync(path.join(dir, f)).isFile();
  const files = fs.readdirSync(dir).filter(regular).sort();
  const index = path.join('blobs', 'index.jsonl');
  if (fs.existsSync(path.join(dir, index)) && regular(index)) files.push(index);
  return sha256(files.map((f) => `${f} ${sha256(fs.readFileSync(path.join(dir, f)))}\n`).join(''));
}

/** The case of the run, and the name its corpus folder has wherever it is copied. */
export const CASE = 'wrong-scope';
const CORPUS = 'wrong-scope-only';

export interface HostileRuns {
  /** The untouched run folder and its corpus. */
  readonly run: string;
  readonly corpus: string;
  /**
   * A copy of the run whose manifest names `corpus.dir` (by default a copy of the corpus broken by
   * `breakCorpus`), with the digests of its regular files, then edited by `editManifest`.
   */
  readonly hostile: (
    name: string,
    o: {
      readonly breakCorpus?: (dir: string) => void;
      readonly corpusDir?: string;
      readonly editManifest?: (m: Record<string, Record<string, unknown>>) => void;
      /** The first compilation line by reference to the corpus, so that `report` and `compare` read it. */
      readonly byReference?: boolean;
      /** Keep the run's digests: the folder holds a file too large to hash here. */
      readonly keepDigests?: boolean;
    },
  ) => string;
}

/** A study of one case by `dump` in `tmp`, and hostile copies of it. */
export function hostileRuns(tmp: string): HostileRuns {
  const corpus = oneCaseCorpus(tmp, CORPUS, CASE);
  const run = path.join(tmp, 'run');
  const made = bin(tmp, 'study', '--corpus', corpus, '--strategies', 'dump', '--out', run, '--quiet');
  if (made.status !== 0) throw new Error(`study: ${made.stderr}`);
  return {
    run,
    corpus,
    hostile: (name, o) => {
      let dir = o.corpusDir;
      if (dir === undefined) {
        // The corpus's own name, so that nothing but what was broken differs from the run's.
        dir = path.join(tmp, `${name}-corpus`, CORPUS);
        fs.cpSync(corpus, dir, { recursive: true });
        o.breakCorpus?.(dir);
      }
      const out = path.join(tmp, name);
      fs.cpSync(run, out, { recursive: true });
      const file = path.join(out, 'manifest.json');
      const m = JSON.parse(fs.readFileSync(file, 'utf8'));
      m.corpus.dir = dir;
      if (o.corpusDir === undefined && o.keepDigests !== true) {
        m.corpus.digest = regularFilesDigest(dir);
        const ledger = path.join(dir, 'ledger');
        // A ledger made a link (to /proc/self/fdinfo, say) keeps the run's digest: not read here.
        if (fs.lstatSync(ledger, { throwIfNoEntry: false })?.isDirectory() === true)
          m.ledger = { dir: ledger, digest: regularFilesDigest(ledger) };
      }
      if (o.byReference === true) {
        m.corpus.ingested = true;
        const lines = path.join(out, 'compilations.jsonl');
        const [first, ...rest] = fs.readFileSync(lines, 'utf8').split('\n');
        const line = { ...JSON.parse(first as string), by_reference: m.corpus.digest };
        fs.writeFileSync(lines, [JSON.stringify(line), ...rest].join('\n'));
      }
      o.editManifest?.(m);
      fs.writeFileSync(file, `${JSON.stringify(m, null, 2)}\n`);
      return out;
    },
  };
}

/** The files the run wrote, and the bytes of each: a refusal must leave them as they were. */
export const filesOf = (dir: string): Record<string, string> =>
  Object.fromEntries(
    fs
      .readdirSync(dir)
      .sort()
      .map((f) => [f, sha256(fs.readFileSync(path.join(dir, f)))]),
  );
