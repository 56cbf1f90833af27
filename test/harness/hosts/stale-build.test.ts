/**
 * A stale build is said, never run silently: in a source checkout, a built strategy whose source
 * was deleted or renamed, a source never built and a source changed since its build each stop
 * with one line naming the file and `npm run build`. An installed package (no
 * tsconfig.build.json) is never judged. Each case is a package folder of its own, made here; the
 * project's strategies/ is never touched.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/harness/errors.js';
import { checkBuilt } from '../../../src/harness/hosts/registry.js';
import { tempDir } from '../../helpers/temp.js';

const tmp = tempDir('stale');
const PLUGIN = "export default { name: 'x', description: 'x', assemble: () => ({ admitted: [] }) };\n";
/** Two moments a minute apart, set on files so that which is newer does not hang on the clock. */
const EARLIER = new Date('2026-01-01T00:00:00Z');
const LATER = new Date('2026-01-01T00:01:00Z');

/** A package folder: sources in strategies/, their build in dist/strategies/, each file at its time. */
function pkg(
  name: string,
  files: { sources: Record<string, Date>; built: Record<string, Date>; checkout?: boolean },
): string {
  const root = path.join(tmp, name);
  for (const [dir, list] of [
    ['strategies', files.sources],
    ['dist/strategies', files.built],
  ] as const) {
    fs.mkdirSync(path.join(root, dir), { recursive: true });
    for (const [file, time] of Object.entries(list)) {
      fs.writeFileSync(path.join(root, dir, file), PLUGIN);
      fs.utimesSync(path.join(root, dir, file), time, time);
    }
  }
  if (files.checkout !== false) fs.writeFileSync(path.join(root, 'tsconfig.build.json'), '{}\n');
  return root;
}

/** The one line checkBuilt stops with, or null when it does not. */
function stale(root: string): string | null {
  try {
    checkBuilt(root);
    return null;
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return (e as InputError).line;
  }
}

describe('a stale build of the strategies', () => {
  it('a build that matches its sources passes: .ts to .js, .mts to .mjs, JavaScript copied', () => {
    const root = pkg('fresh', {
      sources: { 'a.ts': EARLIER, 'b.mts': EARLIER, 'c.js': EARLIER, 'd.mjs': EARLIER, 'a.test.ts': LATER },
      built: { 'a.js': LATER, 'b.mjs': LATER, 'c.js': LATER, 'd.mjs': LATER, 'a.d.ts': LATER },
    });
    expect(stale(root)).toBeNull();
  });

  it('a source deleted or renamed since the build: the built file that would still run is named', () => {
    const root = pkg('renamed', {
      sources: { 'a.ts': EARLIER, 'new-name.ts': EARLIER },
      built: { 'a.js': LATER, 'new-name.js': LATER, 'old-name.js': LATER },
    });
    const old = path.join(root, 'dist/strategies/old-name.js');
    expect(stale(root)).toBe(
      `${old}: built from a source that is gone (no old-name.ts, .mts, .js or .mjs in ${path.join(root, 'strategies')}): the build is stale, run npm run build`,
    );
  });

  it('a source never built, and one changed since its build, each named; more than one are counted', () => {
    const added = pkg('added', { sources: { 'a.ts': EARLIER, 'b.ts': EARLIER }, built: { 'a.js': LATER } });
    expect(stale(added)).toBe(
      `${path.join(added, 'strategies/b.ts')}: not built (no ${path.join(added, 'dist/strategies/b.js')}): the build is stale, run npm run build`,
    );
    const edited = pkg('edited', {
      sources: { 'a.ts': LATER, 'b.ts': EARLIER, 'c.mts': LATER },
      built: { 'a.js': EARLIER, 'b.js': LATER, 'c.mjs': EARLIER },
    });
    expect(stale(edited)).toBe(
      `${path.join(edited, 'strategies/a.ts')}: changed since it was built into ${path.join(edited, 'dist/strategies/a.js')}: the build is stale, run npm run build (and 1 more stale strategy file)`,
    );
  });

  it('an installed package, without tsconfig.build.json, is never judged, whatever its files', () => {
    const root = pkg('installed', {
      sources: { 'a.ts': LATER, 'b.ts': LATER },
      built: { 'a.js': EARLIER, 'gone.js': EARLIER },
      checkout: false,
    });
    expect(stale(root)).toBeNull();
  });
});
