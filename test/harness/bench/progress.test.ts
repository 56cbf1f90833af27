import { describe, expect, it } from 'vitest';
import { bufferIo } from '../../../src/cli/io.js';
import { benchProgress } from '../../../src/harness/bench/bench-progress.js';
import { runBench } from '../../../src/harness/bench/bench-tasks.js';

/** A clock that moves only when a test says so: no wall-clock time in any assertion. */
function fakeClock(start = 1000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

/** Three tasks through a progress reporter, 1.5 s in all on the fake clock. */
function drive(isTTY: boolean, quiet: boolean) {
  const io = bufferIo({ isTTY });
  const clock = fakeClock();
  const p = benchProgress(io, { quiet, now: clock.now });
  const names = ['compiler-strict representation-alternatives', 'dump @20', 'study compiler-v1'];
  for (const [done, name] of names.entries()) {
    p.task(done, names.length, name);
    clock.advance(500);
  }
  p.end(names.length);
  return io;
}

describe('bench progress', () => {
  it('on a terminal, rewrites one line per task and ends with a final line', () => {
    const io = drive(true, false);
    expect(io.stdout).toBe('');
    const first = 'bench 0/3 done, timing compiler-strict representation-alternatives';
    const second = 'bench 1/3 done, timing dump @20';
    const third = 'bench 2/3 done, timing study compiler-v1';
    expect(io.stderr).toBe(
      `\r${first}` +
        // A shorter line covers the longer one before it with spaces, no escape codes.
        `\r${second.padEnd(first.length)}` +
        `\r${third}` +
        `\r${' '.repeat(third.length)}\rbenchmarked 3 tasks in 1.5 s\n`,
    );
    // Only the final line ends a line: nothing scrolls while the tasks run.
    expect(io.stderr.split('\n')).toHaveLength(2);
  });

  it('anywhere else, writes only the final line', () => {
    expect(drive(false, false).stderr).toBe('benchmarked 3 tasks in 1.5 s\n');
  });

  it('with quiet, writes nothing, on a terminal or not', () => {
    for (const tty of [true, false]) {
      const io = drive(tty, true);
      expect(io.stderr).toBe('');
      expect(io.stdout).toBe('');
    }
  });

  it('keeps a long task name to one terminal line', () => {
    const io = bufferIo({ isTTY: true });
    const p = benchProgress(io, { quiet: false, now: () => 0 });
    p.task(0, 1, 'x'.repeat(200));
    const line = io.stderr.slice(1);
    expect(line).toHaveLength(79);
    expect(line.endsWith('…')).toBe(true);
  });

  it('says how long the run took in units a person reads', () => {
    // Durations one by one: output/progress.test.ts.
    const io = bufferIo();
    const clock = fakeClock();
    const p = benchProgress(io, { quiet: false, now: clock.now, note: '(5 ms of samples each)' });
    clock.advance(61_000);
    p.end(16);
    expect(io.stderr).toBe('benchmarked 16 tasks (5 ms of samples each) in 1 min 1 s\n');
  });

  it('hears from runBench before each task and once at the end', async () => {
    const events: string[] = [];
    const records = await runBench([{ name: 'tiny', run: () => 'bundle tiny' }], {
      time: 1,
      warmup: 0,
      progress: {
        task: (done, total, name) => events.push(`task ${done}/${total} ${name}`),
        end: (total) => events.push(`end ${total}`),
      },
    });
    expect(events).toEqual(['task 0/1 tiny', 'end 1']);
    expect(records).toMatchObject([{ name: 'tiny', outcome: 'bundle tiny' }]);
    expect(records[0]?.samples).toBeGreaterThanOrEqual(5);
  });
});
