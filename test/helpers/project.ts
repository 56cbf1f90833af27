/**
 * A copy of the project with extra plug-ins in strategies/, built as `npm run build` builds it,
 * and its real bin: what someone who drops a file into strategies/ runs.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { ROOT } from './corpus.js';
import { PLANTED, PLUGINS } from './plugins.js';

/**
 * What building and running the package needs (the schemas and the formats document are the MCP
 * server's); its corpora and ledgers besides, when asked.
 */
const CODE = [
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'bin',
  'scripts',
  'src',
  'strategies',
  'schemas',
  'docs/formats.md',
];
const DATA = ['corpus', 'ledger'];

/** The project copied into `dir` (its code, and its data unless `data` is false), node_modules linked. */
function copyProject(dir: string, data = true): void {
  for (const part of data ? [...CODE, ...DATA] : CODE)
    fs.cpSync(path.join(ROOT, part), path.join(dir, part), { recursive: true });
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
}

/** The strict settings of a tiny project's tsconfig.json: what the build script needs, no more. */
const TINY_TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    rootDir: '.',
    outDir: 'dist',
    noEmit: true,
    // No DOM, no @types, no checking of the libraries: a quarter of tsc's time on two files.
    lib: ['ES2022'],
    types: [],
    skipLibCheck: true,
  },
  include: ['src', 'strategies'],
};

/**
 * A project of the build script, the bin, their configuration and two sources (and `extra`,
 * path to text), node_modules linked, in `tmp`/pkg: for tests of what the build script does with
 * dist/, not of the compiler, so that tsc takes moments rather than the whole project's seconds.
 */
export function tinyProject(tmp: string, extra: Readonly<Record<string, string>> = {}): string {
  const dir = path.join(tmp, 'pkg');
  const files: Record<string, string> = {
    'package.json': '{ "name": "tiny", "type": "module" }\n',
    'tsconfig.json': JSON.stringify(TINY_TSCONFIG),
    'tsconfig.build.json': '{ "extends": "./tsconfig.json", "compilerOptions": { "noEmit": false } }\n',
    'scripts/build.mjs': fs.readFileSync(path.join(ROOT, 'scripts/build.mjs'), 'utf8'),
    'bin/ctxbench.js': fs.readFileSync(path.join(ROOT, 'bin/ctxbench.js'), 'utf8'),
    'src/cli/main.ts': 'export const answer: number = 1;\n',
    'strategies/zz.ts': 'export default { name: "zz" };\n',
    ...extra,
  };
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

export interface BuiltProject {
  readonly dir: string;
  readonly build: { readonly status: number | null; readonly output: string };
  /** The bin of the copy, run from `cwd` (by default the folder of the test that asked for it). */
  readonly bin: (
    args: readonly string[],
    cwd?: string,
  ) => { status: number | null; stdout: string; stderr: string };
}

/**
 * Copy the project into `tmp`/pkg with `plugins` in strategies/ (a name may hold a subfolder) and
 * the `planted` files of its ledger linked or copied there, and run `npm run build` there.
 */
export function builtProject(
  tmp: string,
  plugins: Readonly<Record<string, string>>,
  planted: typeof PLANTED = {},
): BuiltProject {
  const dir = path.join(tmp, 'pkg');
  copyProject(dir);
  const into = (name: string) => {
    const file = path.join(dir, 'strategies', name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    return file;
  };
  for (const [name, text] of Object.entries(plugins)) fs.writeFileSync(into(name), text);
  for (const [name, { how, truth }] of Object.entries(planted))
    (how === 'link' ? fs.linkSync : fs.copyFileSync)(path.join(dir, truth), into(name));
  // The build script, not tsc alone: it also copies plug-ins written in JavaScript into dist/.
  const b = spawnSync('npm', ['run', 'build', '--silent'], { cwd: dir, encoding: 'utf8' });
  return projectAt(dir, { status: b.status, output: b.stdout + b.stderr }, tmp);
}

/**
 * A copy of a built project, for a test that changes what it holds: a shared project must never
 * be written to, as other files run it. Its files' times are kept (a build older than its
 * sources is refused) and node_modules stays a link.
 */
export function copyOfBuilt(project: BuiltProject, tmp: string): BuiltProject {
  const dir = path.join(tmp, 'pkg');
  fs.cpSync(project.dir, dir, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
  return projectAt(dir, project.build, tmp);
}

function projectAt(dir: string, build: BuiltProject['build'], tmp: string): BuiltProject {
  return {
    dir,
    build,
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

const pause = new Int32Array(new SharedArrayBuffer(4));
/** However long another worker's build takes on a loaded machine; only a lost worker waits this out. */
const BUILD_WAIT_MS = 3_600_000;

/**
 * The project copy with every plug-in of plugins.ts, built by `npm run build` once per test run
 * and shared by the files that only run it (hostile, plugin, plugin-js, library); a file that
 * changes its copy builds its own with `builtProject`. The first worker to ask builds it, the
 * others wait for it; the bin runs from `cwd`, the caller's own folder. Nothing may write into it.
 */
export function sharedProject(cwd: string): BuiltProject {
  const root = path.join(inject('runDir'), 'shared-project');
  const done = path.join(root, 'build.json');
  try {
    fs.mkdirSync(root);
  } catch {
    // Another worker builds it: wait for its result.
    for (let waited = 0; !fs.existsSync(done); waited += 200) {
      if (waited > BUILD_WAIT_MS) throw new Error(`no build of the shared project in ${root}`);
      Atomics.wait(pause, 0, 0, 200);
    }
    return projectAt(path.join(root, 'pkg'), JSON.parse(fs.readFileSync(done, 'utf8')), cwd);
  }
  let build: BuiltProject['build'];
  try {
    build = builtProject(root, PLUGINS, PLANTED).build;
  } catch (e) {
    // The waiting workers must hear of it too, not wait out BUILD_WAIT_MS.
    build = { status: null, output: String(e) };
  }
  // Written whole, then renamed: a waiting worker never reads half of it.
  fs.writeFileSync(`${done}.tmp`, JSON.stringify(build));
  fs.renameSync(`${done}.tmp`, done);
  return projectAt(path.join(root, 'pkg'), build, cwd);
}
