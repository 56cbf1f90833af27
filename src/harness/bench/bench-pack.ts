/**
 * `pack` against repomix, the pair of `bench --processes pack,pack-warm`: both commands on one
 * tree, repomix packing the whole of it, ctxbench packing it for a task at a budget.
 */
import fs from 'node:fs';
import path from 'node:path';
import { InputError, UsageError } from '../errors.js';
import { fromRoot } from '../paths.js';

/** The task and budget `pack` is timed at: a budget of the figures, a task about the tree's code. */
const PACK_TASK = 'make the second pack of a tree faster: cache the token counts and outlines';
const PACK_BUDGET = '8000';

/**
 * repomix's command, the yardstick of `pack` (a devDependency: a checkout after `npm ci` has it,
 * an installed package does not).
 */
function repomix(): string {
  const bin = fromRoot('node_modules/repomix/bin/repomix.cjs');
  if (!fs.existsSync(bin))
    throw new UsageError(
      '--processes pack: repomix, the yardstick, is a devDependency: run from a checkout after npm ci',
    );
  return bin;
}

/**
 * The tree `pack` is timed on: `tree` when given, else a copy of this package's src/ and test/
 * (what the issue measured, no network), made once in the scratch folder.
 */
function packTree(scratch: string, tree: string | undefined): string {
  if (tree !== undefined) {
    if (!fs.existsSync(tree) || !fs.statSync(tree).isDirectory()) throw new InputError(tree, 'not a folder');
    return path.resolve(tree);
  }
  const dir = path.join(scratch, 'tree', 'ctxbench');
  if (!fs.existsSync(dir))
    for (const part of ['src', 'test']) fs.cpSync(fromRoot(part), path.join(dir, part), { recursive: true });
  return dir;
}

/**
 * `pack` against repomix on one tree: repomix packs the whole tree into a file (its default
 * output, quiet), ctxbench packs it for a task at 8,000 tokens, without a cache (every count and
 * outline made, as on a cold cache, and nothing written) or with one the warm-up filled.
 */
export function packSides(
  scratch: string,
  tree: string | undefined,
  warm: boolean,
): { readonly what: string; readonly a: readonly string[]; readonly b: readonly string[] } {
  const dir = packTree(scratch, tree);
  const cache = warm ? ['--cache', path.join(scratch, 'pack-cache')] : ['--no-cache'];
  return {
    what: `pack ${warm ? 'on a warm cache' : 'without a cache'} / repomix, the whole tree (${path.basename(dir)})`,
    a: [
      fromRoot('bin/ctxbench.js'),
      'pack',
      dir,
      '--task',
      PACK_TASK,
      '--budget',
      PACK_BUDGET,
      '--quiet',
      ...cache,
    ],
    b: [repomix(), dir, '--output', path.join(scratch, 'repomix-output.xml'), '--quiet'],
  };
}
