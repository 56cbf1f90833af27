import { describe, expect, it } from 'vitest';
import { duration, progressLine } from '../../../src/harness/output/progress-line.js';

const sink = (isTTY: boolean) => {
  const out = {
    isTTY,
    text: '',
    err(t: string) {
      out.text += t;
    },
  };
  return out;
};
const clock =
  (...times: number[]) =>
  () =>
    times.shift() ?? 0;

describe('progressLine', () => {
  it('on a terminal: each update covers the last, and the final line blanks it first', () => {
    const s = sink(true);
    const p = progressLine(s, { quiet: false, now: clock(0, 1500) });
    p.update('study 1/3, a long description');
    p.update('study 2/3');
    p.end('3 compilations');
    const blank = ' '.repeat('study 2/3'.length);
    expect(s.text).toBe(
      `\rstudy 1/3, a long description\r${'study 2/3'.padEnd(29)}\r${blank}\r3 compilations in 1.5 s\n`,
    );
  });

  it('elsewhere: only the final line; quiet: nothing', () => {
    const s = sink(false);
    const p = progressLine(s, { quiet: false, now: clock(0, 200) });
    p.update('study 1/3');
    p.end('3 compilations');
    expect(s.text).toBe('3 compilations in 200 ms\n');
    const q = sink(true);
    const quiet = progressLine(q, { quiet: true });
    quiet.update('x');
    quiet.end('y');
    expect(q.text).toBe('');
  });

  it('cuts a line too long for a narrow terminal, so that it can be rewritten', () => {
    const s = sink(true);
    progressLine(s, { quiet: false }).update('x'.repeat(200));
    expect(s.text.length).toBe(1 + 79);
    expect(s.text.endsWith('…')).toBe(true);
  });
});

describe('duration', () => {
  it('reads as a person reads it', () => {
    expect([duration(850), duration(12_345), duration(409_000)]).toEqual(['850 ms', '12.3 s', '6 min 49 s']);
  });
});
