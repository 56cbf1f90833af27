/**
 * How a strategy's process is started: its entry (`strategy-host.ts`) and Node's flags. From the built
 * package the permission model lets it read the compiled code and nothing else, so the ledger
 * stays out of its reach (docs/reliability.md, "Isolation").
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../errors.js';
import { fromRoot, packageRoot } from '../paths.js';
import { inside, refuseLinks } from './links.js';
import { STRATEGIES_DIR } from './registry.js';

const FROM_SOURCE = import.meta.url.endsWith('.ts');

/**
 * Set by the test run's configuration when dist/ was built from the sources it tests: the
 * package's own strategies then run as the built package runs them, compiled and under the
 * permission model, at half the CPU of compiling them again under tsx in every process.
 */
const DIST_CURRENT = FROM_SOURCE && process.env.CTXBENCH_DIST_CURRENT === '1';

/**
 * How to start a host. From the sources (the tests) the process registers tsx, which needs to
 * start processes of its own, so the permission model is left off there; the built package,
 * which is what people run, always has it.
 */
export interface Launch {
  /** Node's arguments for a process that loads the strategy modules `files`. */
  readonly args: (files: readonly string[]) => string[];
  /** The heap limit of each process, in MiB. */
  readonly memory: number;
}

/**
 * A strategy process's heap when none is asked for, in MiB: room for the largest input the docs
 * promise (1,000,000 candidates, about 2.7 GB in the process that reads them, is the parent's
 * figure; a strategy holds the parsed pool and its own work), and a bound that does not depend
 * on the machine, so a plug-in that grows without end is stopped as out of memory in seconds.
 */
export const DEFAULT_MEMORY = 4096;

export function launch(secrets: readonly string[], memory = DEFAULT_MEMORY): Launch {
  const heap = `--max-old-space-size=${memory}`;
  if (!FROM_SOURCE) return built(secrets, heap, memory);
  const entry = fileURLToPath(new URL('./child/strategy-host.ts', import.meta.url));
  const tsx = [heap, '--import', import.meta.resolve('tsx/esm'), entry];
  if (!DIST_CURRENT) return { memory, args: (files) => [...tsx, ...files] };
  const dist = built(secrets, heap, memory);
  return {
    memory,
    args: (files) => {
      const compiled = files.map(compiledOf);
      return compiled.every((f) => f !== undefined) ? dist.args(compiled) : [...tsx, ...files];
    },
  };
}

/** The build's copy of a shipped strategy's source (`strategies/x.ts` as `dist/strategies/x.js`), if it has one. */
function compiledOf(file: string): string | undefined {
  if (path.dirname(file) !== STRATEGIES_DIR || !file.endsWith('.ts')) return undefined;
  const js = fromRoot('dist/strategies', `${path.basename(file, '.ts')}.js`);
  return fs.existsSync(js) ? js : undefined;
}

/** The built package's hosts: dist/'s entry, under the permission model. */
function built(secrets: readonly string[], heap: string, memory: number): Launch {
  const entry = FROM_SOURCE
    ? fromRoot('dist/src/harness/hosts/child/strategy-host.js')
    : fileURLToPath(new URL('./child/strategy-host.js', import.meta.url));
  const grants = readablePaths();
  const hidden = [...secrets, fromRoot('ledger')].flatMap((s) => [path.resolve(s), real(s)]);
  const secret = hidden.find((s) => grants.some((r) => inside(s, r)));
  if (secret !== undefined)
    throw new UsageError(`the ledger ${secret} lies inside code that strategies may read: move it out`);
  refuseLinks(grants, hidden);
  const execArgv = [
    heap,
    PERMISSION_FLAG,
    ...grants.map((p) => `--allow-fs-read=${p}`),
    '--disable-warning=ExperimentalWarning',
  ];
  return { memory, args: (files) => [...execArgv, entry, ...files] };
}

const real = (p: string): string => {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
};

/**
 * What a strategy process may read: the compiled code (strategies and the data shipped beside
 * them included), the package's package.json, and the node_modules folders modules resolve from,
 * less the package itself where it is installed in one (its ledger is in it).
 */
const readablePaths = (): string[] => readable([fromRoot('dist'), fromRoot('package.json')], packageRoot());

/**
 * `paths` and the node_modules folders the package's modules resolve from, each as written and as
 * resolved: the permission model's grants for a process of this package that may read `paths`.
 * A node_modules folder that holds `without` (the package, installed as a dependency) is granted
 * entry by entry, that one left out: Node resolves a module by its own folder, never needing to
 * read the node_modules folder around it.
 */
export function readable(paths: readonly string[], without?: string, from = packageRoot()): string[] {
  const all = [...paths];
  for (let dir = from; ; dir = path.dirname(dir)) {
    const modules = path.join(dir, 'node_modules');
    if (visible(modules))
      all.push(
        ...(without !== undefined && inside(without, modules) ? entriesBut(modules, without) : [modules]),
      );
    if (path.dirname(dir) === dir) break;
  }
  // A linked node_modules needs both.
  const grants = [...new Set(all.flatMap((p) => [path.resolve(p), real(p)]))];
  // A grant inside another adds nothing, and Node 20 then refuses the outer folder itself.
  return grants.filter((p) => !grants.some((q) => q !== p && inside(p, q)));
}

/**
 * The entries of `dir`, a scope folder (`@scope`) entered, less the one `without` lies in and
 * `.bin`, whose links lead into the packages' own folders, the one left out among them, and which
 * no module is resolved from.
 */
function entriesBut(dir: string, without: string): string[] {
  return fs.readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (name === '.bin') return [];
    if (!inside(without, p)) return [p];
    return name.startsWith('@') ? entriesBut(p, without) : [];
  });
}

/**
 * Whether `p` exists where this process may look: under the permission model (the MCP server's)
 * a path outside its grants throws rather than answering, and what it may not read it cannot grant.
 */
function visible(p: string): boolean {
  try {
    return fs.existsSync(p);
  } catch {
    return false;
  }
}

/** Node's flag for the permission model: `--permission` where it is stable, else the experimental one. */
export const PERMISSION_FLAG = process.allowedNodeEnvironmentFlags.has('--permission')
  ? '--permission'
  : '--experimental-permission';
