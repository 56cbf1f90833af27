/**
 * Strategy discovery: every module in `strategies/` whose default export is a strategy. No list
 * to edit; a new file joins every command. Order: the six of the published study first, in its
 * order, then the others sorted by name. The commands only list the files here: a plug-in's code
 * runs in a process of its own (`hosts.ts`), never in the one that writes the results.
 *
 * A plug-in is TypeScript (`.ts`, `.mts`) or plain JavaScript (`.js`, `.mjs`). From the sources
 * (tests, tsx) every one runs from `strategies/` as written. The built package runs
 * `dist/strategies/`, where the build compiled the TypeScript and copied the JavaScript (a strategy
 * process may read nothing outside dist/), so there a `.js` may come from either.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { InputError, UsageError } from '../errors.js';
import type { Strategy, StrategyInfo, StrategyInput, StrategyRef } from '../types.js';
import { PUBLISHED_ORDER, SHARED_HOST, STRATEGY_GROUPS } from '../vocabulary.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const FROM_SOURCE = import.meta.url.endsWith('.ts');
/** From src/harness/study (tests, tsx) or dist/src/harness/study (the bin), `strategies/` sits three up. */
export const STRATEGIES_DIR = path.resolve(here, '../../../strategies');

const SHARED = new Set<string>(SHARED_HOST);

/**
 * Whether `ref` is one of the package's own strategies that may share a process (hosts.ts) or stay
 * warm between MCP calls (warm-hosts.ts): its name and its place, so a plug-in named like one is not.
 */
export const mayShare = (ref: StrategyRef): boolean =>
  SHARED.has(ref.name) && path.dirname(ref.file) === STRATEGIES_DIR;
/**
 * The folder plug-ins are written in, `strategies/` at the package's root: STRATEGIES_DIR itself
 * from the sources, the folder the build compiled and copied from when running from dist/.
 */
const WRITTEN_DIR = FROM_SOURCE ? STRATEGIES_DIR : path.resolve(here, '../../../../strategies');
/** What a plug-in may be written as, and what of it the built package runs. */
const WRITTEN = ['.ts', '.mts', '.js', '.mjs'];
const BUILT = ['.js', '.mjs'];

function isStrategy(x: unknown): x is Strategy {
  const s = x as Partial<Strategy> | null;
  return (
    typeof s === 'object' &&
    s !== null &&
    typeof s.name === 'string' &&
    typeof s.description === 'string' &&
    typeof s.assemble === 'function' &&
    (s.readsLedger === undefined || typeof s.readsLedger === 'boolean')
  );
}

export function registryOrder(a: string, b: string): number {
  const rank = (n: string) => {
    const k = (PUBLISHED_ORDER as readonly string[]).indexOf(n);
    return k < 0 ? PUBLISHED_ORDER.length : k;
  };
  return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * The plug-in files of a folder with one of the extensions. A name with a dot in its stem is no
 * plug-in: `x.d.ts` declares, `x.test.ts` tests, and `x.part.ts` is a part of the strategy `x`
 * that only `x` imports (with `parts`, those are listed too, for the stale-build check).
 */
function pluginFiles(dir: string, extensions: readonly string[], parts = false): StrategyRef[] {
  return fs.readdirSync(dir).flatMap((f) => {
    const ext = path.extname(f);
    const name = path.basename(f, ext);
    const dotted = name.includes('.');
    const part = dotted && !name.endsWith('.d') && !name.endsWith('.test');
    if (!extensions.includes(ext) || (dotted && !(parts && part))) return [];
    return [{ name, file: path.join(dir, f) }];
  });
}

/**
 * Stop when two files claim one name (`a.ts` and `a.js`): which of them runs would depend on
 * the build or the loader, so neither does. One line naming every file of the name.
 */
function oneFileEach(refs: readonly StrategyRef[]): StrategyRef[] {
  const byName = new Map<string, string[]>();
  for (const r of refs) byName.set(r.name, [...(byName.get(r.name) ?? []), r.file]);
  for (const [name, files] of byName) {
    const [first, ...others] = files.sort();
    if (first !== undefined && others.length > 0)
      throw new InputError(
        first,
        `strategy "${name}" is also defined by ${others.join(', ')}: one strategy, one file`,
      );
  }
  return [...refs];
}

/** The file the build makes of a plug-in: `.ts` compiles to `.js`, `.mts` to `.mjs`, JavaScript is copied. */
const builtName = (file: string): string =>
  path
    .basename(file)
    .replace(/\.ts$/, '.js')
    .replace(/\.mts$/, '.mjs');

/**
 * Stop when the package's built strategies are not what its sources in strategies/ build: a
 * plug-in deleted or renamed since the build would still run from dist/, one added would be
 * missing, one edited would run as it was. One line, naming the first stale file, and
 * `npm run build`. Only in a source checkout (where tsconfig.build.json lies beside strategies/):
 * the installed package ships no build to redo, and its files' times say nothing.
 */
export function checkBuilt(root: string): void {
  const writtenDir = path.join(root, 'strategies');
  const builtDir = path.join(root, 'dist', 'strategies');
  if (![path.join(root, 'tsconfig.build.json'), writtenDir, builtDir].every((p) => fs.existsSync(p))) return;
  const written = pluginFiles(writtenDir, WRITTEN, true);
  const sources = new Set(written.map((r) => r.name));
  const stale: [file: string, why: string][] = pluginFiles(builtDir, BUILT, true)
    .filter((b) => !sources.has(b.name))
    .map((b) => [
      b.file,
      `built from a source that is gone (no ${b.name}.ts, .mts, .js or .mjs in ${writtenDir})`,
    ]);
  for (const w of written) {
    const built = path.join(builtDir, builtName(w.file));
    // A modification time is a fact of the file system, read to tell a stale build, not to decide a result.
    if (!fs.existsSync(built)) stale.push([w.file, `not built (no ${built})`]);
    else if (fs.statSync(w.file).mtimeMs > fs.statSync(built).mtimeMs)
      stale.push([w.file, `changed since it was built into ${built}`]);
  }
  const [first, ...more] = stale.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (first === undefined) return;
  const others =
    more.length === 0 ? '' : ` (and ${more.length} more stale strategy file${more.length === 1 ? '' : 's'})`;
  throw new InputError(first[0], `${first[1]}: the build is stale, run npm run build${others}`);
}

/** The strategy files of a folder, in registry order, none of them loaded. */
export function listStrategies(dir = STRATEGIES_DIR): StrategyRef[] {
  // Built, `a.ts` and `a.js` both end as dist/strategies/a.js, one hiding the other: only the
  // folder they were written in still shows both.
  if (!FROM_SOURCE && dir === STRATEGIES_DIR && fs.existsSync(WRITTEN_DIR)) {
    oneFileEach(pluginFiles(WRITTEN_DIR, WRITTEN));
    checkBuilt(path.dirname(WRITTEN_DIR));
  }
  return oneFileEach(pluginFiles(dir, FROM_SOURCE ? WRITTEN : BUILT)).sort((a, b) =>
    registryOrder(a.name, b.name),
  );
}

const GROUP_NAMES = Object.keys(STRATEGY_GROUPS);

/**
 * A group's members that have a file here. A strategy named like a group could not be picked by
 * its name, so that is refused where the file is found, not guessed at.
 */
function groupMembers(group: string, all: readonly StrategyRef[]): StrategyRef[] {
  const clash = all.find((s) => GROUP_NAMES.includes(s.name));
  if (clash !== undefined)
    throw new InputError(
      clash.file,
      `strategy "${clash.name}" is named like a group of --strategies; rename it`,
    );
  const members = STRATEGY_GROUPS[group];
  if (members === 'all') return [...all];
  return all.filter((s) => members?.includes(s.name));
}

/**
 * The named strategies' files, in registry order, each once; a group name (`all`, `peers`)
 * stands for its members that exist, and a group with none is absent beside other names. An
 * unknown name lists the known ones and the groups.
 */
export function pickStrategies(names: readonly string[] | undefined, dir = STRATEGIES_DIR): StrategyRef[] {
  const all = listStrategies(dir);
  if (names === undefined) return all;
  const known = all.map((s) => s.name);
  const listed = `known: ${known.join(', ')}; groups: ${GROUP_NAMES.join(', ')}`;
  if (names.length === 0) throw new UsageError(`name at least one strategy (${listed})`);
  const unknown = names.filter((n) => !known.includes(n) && !GROUP_NAMES.includes(n));
  if (unknown.length > 0) throw new UsageError(`unknown strategy "${unknown.join('", "')}" (${listed})`);
  const wanted = new Set(names.filter((n) => known.includes(n)));
  for (const n of names.filter((g) => GROUP_NAMES.includes(g)))
    for (const s of groupMembers(n, all)) wanted.add(s.name);
  if (wanted.size === 0) {
    const empty = names.find((n) => STRATEGY_GROUPS[n] !== 'all') ?? names[0];
    const members = STRATEGY_GROUPS[empty ?? ''];
    const of = Array.isArray(members) ? ` (none of ${members.join(', ')} is in strategies/)` : '';
    throw new UsageError(`the group "${empty}" has no strategy here${of}`);
  }
  return all.filter((s) => wanted.has(s.name));
}

/** What a run needs to know of a strategy besides its code. */
export const infoOf = (s: StrategyInfo): StrategyInfo => ({
  name: s.name,
  description: s.description,
  readsLedger: s.readsLedger === true,
});

/**
 * A module's default export as a strategy, its fields read once and kept: a getter cannot give
 * one name to the registry and another to a row. A malformed plug-in stops with its file named.
 */
export async function loadStrategyFile(file: string): Promise<Strategy> {
  const mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
  const s = mod.default;
  if (!isStrategy(s)) throw new InputError(file, 'default export is not {name, description, assemble}');
  const { name, description, readsLedger, assemble } = s;
  if (name !== path.basename(file, path.extname(file)))
    throw new InputError(file, `strategy name "${name}" is not the file's stem`);
  return Object.freeze({
    ...infoOf({ name, description, readsLedger }),
    assemble: (input: StrategyInput) => assemble.call(s, input),
  });
}

let cache: Promise<readonly Strategy[]> | undefined;

/**
 * Strategies loaded into this process, for the library, the tests and `bench`, which time them
 * where they run. They trust their code: a study runs each in a process of its own instead.
 */
export async function loadStrategies(names?: readonly string[] | undefined): Promise<readonly Strategy[]> {
  cache ??= (async () => {
    const found: Strategy[] = [];
    for (const ref of listStrategies()) found.push(await loadStrategyFile(ref.file));
    return found;
  })();
  const all = await cache;
  if (names === undefined) return all;
  const wanted = new Set(pickStrategies(names).map((r) => r.name));
  return all.filter((s) => wanted.has(s.name));
}
