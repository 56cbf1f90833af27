/**
 * The parent's clock for a strategy's process (hosts.ts): one deadline at a time, started when
 * the parent starts the process or sends it a request, stopped when the parent has what it waited
 * for. Nothing the process sends starts, stops or moves it.
 */

/** How late a deadline may be noticed before the lateness counts as this thread's, not the strategy's. */
const LATE = 50;
/** The longest wait one timer can hold (Node turns a longer one into 1 ms). */
const LONGEST_TIMER = 2 ** 31 - 1;

export class Deadline {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private verdict: ReturnType<typeof setImmediate> | undefined;
  private due = 0;
  private give: () => void = () => {};

  /**
   * Call `give` once `ms` have passed in which this thread was free to read the process's pipe.
   * The clock only decides when to give up on a process, never what is compiled. This thread may
   * be busy past the deadline (measuring another cell) while what it waits for lies in the pipe,
   * or waits there to be written once the pipe is read: a deadline noticed late is moved on by
   * as long as it was late, and the verdict waits for one more read of the pipe (setImmediate
   * runs after the event loop's poll), so a busy parent never fails an answer it has not read.
   */
  start(ms: number, give: () => void): void {
    this.stop();
    this.give = give;
    this.due = performance.now() + ms;
    this.arm(ms);
  }

  stop(): void {
    clearTimeout(this.timer);
    clearImmediate(this.verdict);
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => this.check(), Math.min(Math.max(ms, 1), LONGEST_TIMER));
  }

  private check(): void {
    const now = performance.now();
    const late = now - this.due;
    if (late < 0) this.arm(-late);
    else if (late > LATE) {
      this.due = now + late;
      this.arm(late);
    } else this.verdict = setImmediate(this.give);
  }
}
