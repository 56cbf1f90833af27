/**
 * Strategy discovery: every module in `strategies/` whose default export is a strategy. No list
 * to edit; a new file joins every command. Order: the six of the published study first, in its
 * order, then the others sorted by name.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { InputError, UsageError } from '../input/errors.js';
import type { Strategy, StrategyInput } from '../types.js';
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

/** Where each loaded strategy came from: its own process loads it again from there. */
const files = new WeakMap<Strategy, string>();

/** The module a strategy was loaded from, if it came from a file. */
export const strategyFile = (s: Strategy): string | undefined => files.get(s);

/**
 * A module's default export as a strategy, its fields read once and kept: a getter cannot give
 * one name to the registry and another to a row. A malformed plug-in stops with its file named.
 */
export async function loadStrategyFile(file: string, ext = path.extname(file)): Promise<Strategy> {
  const mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
  const s = mod.default;
  if (!isStrategy(s)) throw new InputError(file, 'default export is not {name, description, assemble}');
  const { name, description, readsLedger, assemble } = s;
  if (name !== path.basename(file, ext))
    throw new InputError(file, `strategy name "${name}" is not the file's stem`);
  const kept: Strategy = Object.freeze({
    name,
    description,
    readsLedger: readsLedger === true,
    assemble: (input: StrategyInput) => assemble.call(s, input),
  });
  files.set(kept, file);
  return kept;
}

export function registryOrder(a: string, b: string): number {
  const rank = (n: string) => {
    const k = (PUBLISHED_ORDER as readonly string[]).indexOf(n);
    return k < 0 ? PUBLISHED_ORDER.length : k;
  };
  return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
}

let cache: Promise<readonly Strategy[]> | undefined;

/** All registered strategies, in registry order. A malformed plug-in stops with its file named. */
export function loadStrategies(dir = STRATEGIES_DIR): Promise<readonly Strategy[]> {
  if (dir === STRATEGIES_DIR && cache) return cache;
  const loading = (async () => {
    const names = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith(EXT) && !f.endsWith('.d.ts') && !f.endsWith(`.test${EXT}`))
      .sort();
    const found: Strategy[] = [];
    for (const f of names) found.push(await loadStrategyFile(path.join(dir, f), EXT));
    return found.sort((a, b) => registryOrder(a.name, b.name));
  })();
  if (dir === STRATEGIES_DIR) cache = loading;
  return loading;
}

/** The named strategies, in registry order; an unknown name lists the known ones. */
export async function pickStrategies(names: readonly string[] | undefined): Promise<readonly Strategy[]> {
  const all = await loadStrategies();
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
