import fs from 'node:fs';
import path from 'node:path';
import { bufferIo } from '../../src/cli/io.js';
import { run } from '../../src/cli/main.js';
import { CORPUS_DIR, ROOT } from './corpus.js';

/**
 * Node's arguments for the CLI in a process of its own (to signal or kill it): the bin, when dist/
 * is a build of the sources under test (vitest.config.ts), else the sources under tsx, which
 * costs a second of CPU more per process.
 */
export const processArgs = (...args: string[]): string[] =>
  process.env.CTXBENCH_DIST_CURRENT === '1'
    ? [path.join(ROOT, 'bin/ctxbench.js'), ...args]
    : sourceArgs(...args);

/**
 * The CLI from the sources under tsx, always: for a run folder a command in the test's own thread
 * goes on with, since a run records its strategies' files, and the sources' are not dist/'s.
 */
export const sourceArgs = (...args: string[]): string[] => [
  '--import',
  'tsx/esm',
  path.join(ROOT, 'test/helpers/bin.ts'),
  ...args,
];

/** The keys of `compile`'s output object, in the order it prints them. */
export const COMPILE_KEYS = ['bundle', 'result', 'rendered_text', 'validation', 'real_tokens', 'extras'];

/** The CLI in-process: exit code and what it printed. */
export async function cli(...args: string[]) {
  const io = bufferIo();
  const code = await run(args, io);
  return { code, stdout: io.stdout, stderr: io.stderr };
}

/** The input flags of compile and validate; the policy defaults to the reference's. */
export const inputFlags = (
  request: string,
  candidates: string,
  policy = path.join(CORPUS_DIR, 'compiler-policy-v1.json'),
): string[] => ['--request', request, '--candidates', candidates, '--policy', policy];

/** The input flags for one case of a corpus folder, its policy beside it. */
export const caseFlags = (name: string, dir = CORPUS_DIR): string[] =>
  inputFlags(
    path.join(dir, `${name}.request.json`),
    path.join(dir, `${name}.candidates.json`),
    path.join(dir, 'compiler-policy-v1.json'),
  );

/** A copy of the reference corpus with its ledger inside, to break on purpose. */
export function corpusCopy(tmp: string, name: string, edit: (dir: string) => void = () => {}): string {
  const dir = path.join(tmp, name);
  fs.mkdirSync(path.join(dir, 'ledger'), { recursive: true });
  for (const f of fs.readdirSync(CORPUS_DIR)) {
    if (f.endsWith('.json')) fs.copyFileSync(path.join(CORPUS_DIR, f), path.join(dir, f));
  }
  const ledger = path.join(ROOT, 'ledger/compiler-v1');
  for (const f of fs.readdirSync(ledger)) fs.copyFileSync(path.join(ledger, f), path.join(dir, 'ledger', f));
  edit(dir);
  return dir;
}

/**
 * A copy of the reference corpus holding one case alone, with its ledger inside: a study of a
 * strategy that never answers then takes three timeouts, not forty-two.
 */
export function oneCaseCorpus(tmp: string, name: string, kase: string): string {
  return corpusCopy(tmp, name, (dir) => {
    for (const f of fs.readdirSync(dir))
      if (/\.(request|candidates)\.json$/.test(f) && !f.startsWith(`${kase}.`)) fs.rmSync(path.join(dir, f));
    for (const f of fs.readdirSync(path.join(dir, 'ledger')))
      if (!f.startsWith(`${kase}.`)) fs.rmSync(path.join(dir, 'ledger', f));
    const file = path.join(dir, 'manifest.json');
    const m = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    for (const [key, value] of Object.entries(m)) {
      if (Array.isArray(value)) m[key] = value.filter((v) => v === kase);
      else if (typeof value === 'object' && value !== null && kase in value)
        m[key] = { [kase]: (value as Record<string, unknown>)[kase] };
    }
    fs.writeFileSync(file, JSON.stringify(m));
  });
}
