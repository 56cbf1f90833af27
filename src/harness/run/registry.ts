/**
 * Strategy discovery: every module in `strategies/` whose default export is a strategy. No list
 * to edit; a new file joins every command. Order: the six of the published study first, in its
 * order, then the others sorted by name. The commands only list the files here: a plug-in's code
 * runs in a process of its own (`hosts.ts`), never in the one that writes the results.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { InputError, UsageError } from '../input/errors.js';
import type { Strategy, StrategyInfo, StrategyInput, StrategyRef } from '../types.js';
import { PUBLISHED_ORDER } from '../vocabulary.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** From src/harness/run (tests, tsx) or dist/src/harness/run (the bin), `strategies/` sits three up. */
export const STRATEGIES_DIR = path.resolve(here, '../../../strategies');
const EXT = import.meta.url.endsWith('.ts') ? '.ts' : '.js';

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

/** The strategy files of a folder, in registry order, none of them loaded. */
export function listStrategies(dir = STRATEGIES_DIR): StrategyRef[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(EXT) && !f.endsWith('.d.ts') && !f.endsWith(`.test${EXT}`))
    .map((f) => ({ name: path.basename(f, EXT), file: path.join(dir, f) }))
    .sort((a, b) => registryOrder(a.name, b.name));
}

/** The named strategies' files, in registry order; an unknown name lists the known ones. */
export function pickStrategies(names: readonly string[] | undefined, dir = STRATEGIES_DIR): StrategyRef[] {
  const all = listStrategies(dir);
  if (names === undefined) return all;
  if (names.length === 0)
    throw new UsageError(`name at least one strategy (known: ${all.map((s) => s.name).join(', ')})`);
  const known = all.map((s) => s.name);
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length > 0) {
    throw new UsageError(`unknown strategy "${unknown.join('", "')}" (known: ${known.join(', ')})`);
  }
  return all.filter((s) => names.includes(s.name));
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
