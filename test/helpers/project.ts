/**
 * A copy of the project with extra plug-ins in strategies/, built as `npm run build` builds it,
 * and its real bin: what someone who drops a file into strategies/ runs.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './corpus.js';

const PARTS = [
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'bin',
  'scripts',
  'src',
  'strategies',
  'corpus',
  'ledger',
];

export interface BuiltProject {
  readonly dir: string;
  readonly build: { readonly status: number | null; readonly output: string };
  /** The bin of the copy, run from `cwd` (the copy's parent by default). */
  readonly bin: (
    args: readonly string[],
    cwd?: string,
  ) => { status: number | null; stdout: string; stderr: string };
}

export function builtProject(tmp: string, plugins: Readonly<Record<string, string>>): BuiltProject {
  const dir = path.join(tmp, 'pkg');
  for (const part of PARTS) fs.cpSync(path.join(ROOT, part), path.join(dir, part), { recursive: true });
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  for (const [name, text] of Object.entries(plugins))
    fs.writeFileSync(path.join(dir, 'strategies', name), text);
  const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
  const b = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: dir, encoding: 'utf8' });
  return {
    dir,
    build: { status: b.status, output: b.stdout + b.stderr },
    bin: (args, cwd = tmp) => {
      const r = spawnSync(process.execPath, [path.join(dir, 'bin/ctxbench.js'), ...args], {
        cwd,
        encoding: 'utf8',
        maxBuffer: 1 << 28,
      });
      return { status: r.status, stdout: r.stdout, stderr: r.stderr };
    },
  };
}

/** A run folder's rows, parsed. */
export const rowsOf = (dir: string): Record<string, unknown>[] =>
  fs
    .readFileSync(path.join(dir, 'rows.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
