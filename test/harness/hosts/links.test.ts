/**
 * The scan of the code strategy processes may read (links.ts): a link that leads outside it, or
 * into or above a secret, stops the command with the link and its target named; a link that
 * stays inside is allowed. The whole tree is walked, so depth does not hide a link.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { InputError } from '../../../src/harness/errors.js';
import { refuseLinks } from '../../../src/harness/hosts/links.js';
import { tempDir } from '../../helpers/temp.js';

const tmp = tempDir('links');
let n = 0;
let root = '';
const at = (...p: string[]) => path.join(root, ...p);

beforeEach(() => {
  root = path.join(tmp, String(++n));
  for (const d of ['dist/strategies', 'node_modules/pkg/lib/deep', 'ledger/v1'])
    fs.mkdirSync(at(d), { recursive: true });
  fs.writeFileSync(at('dist/strategies/a.js'), 'export default 1;\n');
  fs.writeFileSync(at('ledger/v1/x.truth.json'), '{}\n');
  fs.writeFileSync(at('outside.txt'), 'no\n');
});

const scan = () => refuseLinks([at('dist'), at('node_modules')], [at('ledger')]);
const refusal = () => {
  try {
    scan();
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return (e as InputError).line;
  }
  return undefined;
};

describe('links in the readable code', () => {
  it('links that stay inside are allowed, the dist/ to node_modules/ way and back', () => {
    fs.symlinkSync(at('dist/strategies/a.js'), at('dist/b.js'));
    fs.symlinkSync(at('node_modules/pkg/lib'), at('dist/lib'));
    fs.symlinkSync('../pkg/lib', at('node_modules/pkg/deep-link'));
    expect(refusal()).toBeUndefined();
  });

  it.each([
    ['a truth file', 'dist/strategies/truth.json', 'ledger/v1/x.truth.json', /which reaches the secret/],
    ['the ledger folder', 'dist/ledger', 'ledger', /which reaches the secret/],
    ['a folder above the ledger', 'dist/up', '.', /which reaches the secret/],
    ['a file elsewhere', 'dist/strategies/o.js', 'outside.txt', /outside the code strategies may read/],
    [
      'a truth file, deep in node_modules',
      'node_modules/pkg/lib/deep/t.json',
      'ledger/v1/x.truth.json',
      /secret/,
    ],
    ['a truth file not yet there', 'dist/later.json', 'ledger/v1/later.truth.json', /secret/],
  ])('a link to %s is refused, named with its target', (_what, link, to, why) => {
    fs.symlinkSync(at(to), at(link));
    const message = refusal();
    expect(message).toMatch(why);
    expect(message).toContain(`${at(link)}: a link to ${path.resolve(at(to))}`);
    expect(message?.split('\n')).toHaveLength(1);
  });
});
