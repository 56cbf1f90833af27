import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BackgroundWriter } from '../../../src/harness/output/background.js';
import { writeWholeAsync } from '../../../src/harness/output/index.js';
import { LineFile } from '../../../src/harness/output/whole-folder.js';
import { tempDir } from '../../helpers/temp.js';

const tmp = tempDir('background');

/** Lines of every length up to past a chunk, some with characters beyond one byte. */
const lines = (n: number): string[] =>
  Array.from({ length: n }, (_, k) => `${k}:${'é€x'.repeat(k % 7)}${'y'.repeat((k * 7919) % 5000)}`);

describe('BackgroundWriter', () => {
  it('writes the very bytes LineFile writes, file after file, past the limit of what may wait', async () => {
    const dir = path.join(tmp, 'same');
    fs.mkdirSync(dir);
    // 3 files of 20,000 lines, about 50 MB each: more than the 32 MB that may wait at once.
    const texts = [lines(20_000), lines(20_001).reverse(), []];
    const writer = new BackgroundWriter();
    for (const [k, t] of texts.entries()) {
      const file = writer.lines(path.join(dir, `bg${k}`));
      for (const line of t) file.add(line);
      file.close();
      const plain = new LineFile(path.join(dir, `fg${k}`));
      for (const line of t) plain.add(line);
      plain.close();
    }
    await writer.end();
    for (const k of texts.keys())
      expect(
        fs.readFileSync(path.join(dir, `bg${k}`)).equals(fs.readFileSync(path.join(dir, `fg${k}`))),
      ).toBe(true);
    expect(fs.statSync(path.join(dir, 'bg0')).size).toBeGreaterThan(40 << 20);
  });

  it('reports the first failure at the end, and writes nothing after it', async () => {
    const dir = path.join(tmp, 'fails');
    fs.mkdirSync(dir);
    const writer = new BackgroundWriter();
    const bad = writer.lines(path.join(dir, 'no-such-folder', 'x'));
    bad.add('a');
    bad.close();
    const later = writer.lines(path.join(dir, 'later'));
    later.add('b');
    later.close();
    await expect(writer.end()).rejects.toThrow(/^writing in the background: ENOENT.*no-such-folder/);
    expect(fs.existsSync(path.join(dir, 'later'))).toBe(false);
  });
});

describe('writeWholeAsync with background files', () => {
  it('moves the folder into place only once every background file is written', async () => {
    const out = path.join(tmp, 'whole');
    const t = lines(3000);
    await writeWholeAsync(out, async (w) => {
      const file = w.linesInBackground('big.jsonl');
      for (const line of t) file.add(line);
      file.close();
    });
    expect(fs.readFileSync(path.join(out, 'big.jsonl'), 'utf8')).toBe(`${t.join('\n')}\n`);
  });

  it('leaves nothing behind when the fill fails with background writes under way', async () => {
    const out = path.join(tmp, 'failed');
    await expect(
      writeWholeAsync(out, async (w) => {
        const file = w.linesInBackground('big.jsonl');
        for (const line of lines(3000)) file.add(line);
        throw new Error('the fill fails');
      }),
    ).rejects.toThrow('the fill fails');
    expect(fs.readdirSync(tmp).filter((f) => f.startsWith('failed'))).toEqual([]);
  });
});
