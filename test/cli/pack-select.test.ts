import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { cli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

// The process boundary is not what this file is about: strategies answer in this thread.
vi.mock('../../src/harness/hosts/hosts.js', () => import('../helpers/in-thread-hosts.js'));

const tmp = tempDir('pack-select');

/**
 * A tree where a strategy that read the printed items would choose by format. `upload.py` is the
 * file the task names. `schema.py` never names the task's words, but is full of the words the
 * formats wrap an item in (`content`, `path`, `form`, `tokens`, `full`, `id`, `null`): had the
 * task been indexed as its JSON object and each file as its own, those words would be query terms
 * and schema.py would be a bm25 hit in JSON (and in XML, by the `CDATA` both the task's element
 * and every file's carry), though it holds none of the task's words. The budget holds both.
 */
function selectTree(): string {
  const dir = path.join(tmp, 'select');
  fs.mkdirSync(dir, { recursive: true });
  const upload = [
    '"""Retry the upload when the connection drops."""',
    '',
    'def upload(chunk, connection):',
    '    """Send one chunk; retry the upload while the connection drops."""',
    '    for attempt in range(3):',
    '        if connection.send(chunk):',
    '            return attempt',
    '    raise ConnectionError("upload failed after retries")',
    '',
  ].join('\n');
  const schema = ['"""Field names of a record."""', '', 'FIELDS = {']
    .concat(
      Array.from(
        { length: 40 },
        (_, k) => `    "content_${k}": ("path", "form", "tokens", "full", "id", "null", "content"),`,
      ),
    )
    .concat(['}', ''])
    .join('\n');
  fs.writeFileSync(path.join(dir, 'upload.py'), upload);
  fs.writeFileSync(path.join(dir, 'schema.py'), schema);
  return dir;
}

const TASK = 'Retry the upload when the connection drops';

interface Item {
  readonly path: string | null;
  readonly form: string;
}

/** The files a pack chose, with their forms, whatever the format printed them as. */
function chosen(stdout: string, format: string): string[] {
  if (format === 'json')
    return (JSON.parse(stdout) as { items: Item[] }).items
      .filter((i) => i.path !== null)
      .map((i) => `${i.path}#${i.form}`)
      .sort();
  if (format === 'xml')
    return [...stdout.matchAll(/<file path="([^"]+)" form="([a-z]+)"/g)].map((m) => `${m[1]}#${m[2]}`).sort();
  return [...stdout.matchAll(/^## (\S+) \(([a-z]+), /gm)].map((m) => `${m[1]}#${m[2]}`).sort();
}

describe('pack selects on the source and prices as printed', () => {
  it('chooses the same files in md, xml and json, for the default strategy and for bm25', async () => {
    const dir = selectTree();
    for (const strategy of ['compiler-v2', 'bm25']) {
      const picks = new Map<string, string[]>();
      for (const format of ['md', 'xml', 'json']) {
        const r = await cli(
          'pack',
          dir,
          '--task',
          TASK,
          '--budget',
          '2000',
          '--strategy',
          strategy,
          '--format',
          format,
        );
        expect(r.code, `${strategy} ${format}: ${r.stderr}`).toBe(0);
        picks.set(format, chosen(r.stdout, format));
      }
      // The file the task names is whole in every format; bm25 retrieves no other, since no
      // other holds a word of the task (a strategy reading a format's wrapper would find some).
      expect(picks.get('md'), strategy).toContain('upload.py#full');
      if (strategy === 'bm25') expect(picks.get('md')).toEqual(['upload.py#full']);
      expect(picks.get('xml'), strategy).toEqual(picks.get('md'));
      expect(picks.get('json'), strategy).toEqual(picks.get('md'));
    }
  }, 60_000);
});
