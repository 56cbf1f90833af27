/**
 * What a strategy process may read when ctxbench is installed as a dependency (an `npm install`
 * of its tarball): its ledger then lies inside the project's node_modules, which a clone's grants
 * give whole. There the folder is granted entry by entry, the package itself and `.bin` (links
 * into it) left out, so no strategy can read the ledger and every other package still resolves.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { readable } from '../../../src/harness/hosts/launch.js';
import { tempDir } from '../../helpers/temp.js';

const tmp = tempDir('installed-grants');
const modules = path.join(tmp, 'project/node_modules');
const pkg = path.join(modules, 'ctxbench');
for (const d of [
  'ctxbench/dist',
  'ctxbench/ledger',
  'gpt-tokenizer',
  '@langchain/core',
  '@scope/ctxbench-kin',
  '.bin',
])
  fs.mkdirSync(path.join(modules, d), { recursive: true });
// Two packages under one scope.
fs.mkdirSync(path.join(modules, '@langchain/other'));

it('installed: every package beside it, not the package itself, its ledger or .bin', () => {
  const grants = readable([path.join(pkg, 'dist')], pkg, pkg);
  expect(grants).toContain(path.join(pkg, 'dist'));
  // A scope folder that does not hold it is granted whole; the one that does, entry by entry.
  for (const dep of ['gpt-tokenizer', '@langchain', '@scope'])
    expect(grants, dep).toContain(path.join(modules, dep));
  for (const hidden of [modules, pkg, path.join(pkg, 'ledger'), path.join(modules, '.bin')])
    expect(grants, hidden).not.toContain(hidden);
  expect(grants.some((g) => path.join(pkg, 'ledger').startsWith(`${g}${path.sep}`))).toBe(false);
});

it('a package scoped like it keeps its scope folder granted entry by entry', () => {
  const scoped = path.join(modules, '@scope/ctxbench-kin');
  const grants = readable([], scoped, scoped);
  expect(grants).toContain(path.join(modules, 'gpt-tokenizer'));
  expect(grants).not.toContain(path.join(modules, '@scope'));
  expect(grants).not.toContain(scoped);
});

it('in a clone (the package not inside the folder), node_modules is granted whole', () => {
  const clone = path.join(tmp, 'project');
  expect(readable([], undefined, clone)).toContain(modules);
  expect(readable([], path.join(tmp, 'elsewhere'), clone)).toContain(modules);
});
