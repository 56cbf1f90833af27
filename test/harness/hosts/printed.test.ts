/**
 * What a strategy prints reaches ctxbench's stderr inert and bounded (`printed.ts`): every
 * control character but the line break and the tab escaped, at most PRINTED_CAP bytes per
 * strategy and command, cut on a whole character, and one line counting what was dropped.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { inert, Printed } from '../../../src/harness/hosts/printed.js';
import { PRINTED_CAP } from '../../helpers/limits.js';

/** A child process as the relay sees one: two streams that emit chunks. */
function fakeChild() {
  const stdout = new EventEmitter();
  const stderr = new EventEmitter();
  return {
    child: { stdout, stderr } as unknown as Parameters<Printed['relay']>[0],
    out: (b: Buffer | string) => stdout.emit('data', Buffer.from(b)),
    err: (b: Buffer | string) => stderr.emit('data', Buffer.from(b)),
  };
}

function relayed(name = 'zz') {
  const said: string[] = [];
  const printed = new Printed(name, (t) => said.push(t));
  return { printed, text: () => said.join('') };
}

describe('inert', () => {
  it('escapes every C0 and C1 control but the line break and the tab, DEL, and the bidirectional controls', () => {
    for (let c = 0; c <= 0x9f; c++) {
      const ch = String.fromCharCode(c);
      const active = (c < 0x20 && c !== 0x0a && c !== 0x09) || c >= 0x7f;
      expect(inert(ch), `U+${c.toString(16)}`).toBe(active ? `\\x${c.toString(16).padStart(2, '0')}` : ch);
    }
    for (const c of [
      0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069,
    ])
      expect(inert(String.fromCodePoint(c))).toBe(`\\u${c.toString(16).padStart(4, '0')}`);
    // Text of every other kind is kept as it came.
    const kept = 'é 漢字 😀 \u00a0 ZWJ\u200d tab\tline\n';
    expect(inert(kept)).toBe(kept);
    expect(inert('\x1b[2J\x1b]0;title\x07\r\u009b31m')).toBe('\\x1b[2J\\x1b]0;title\\x07\\x0d\\x9b31m');
  });
});

describe('Printed', () => {
  it('passes text through, escaped, from both streams, a character split between chunks kept whole', () => {
    const { printed, text } = relayed();
    const p = fakeChild();
    const end = printed.relay(p.child).end;
    const e = Buffer.from('é\x1b');
    p.out(e.subarray(0, 1));
    p.err('line\n');
    p.out(e.subarray(1));
    end();
    expect(text()).toBe('line\né\\x1b');
  });

  it("keeps the end of the process's stderr as it came, shown or not, for why it stopped", () => {
    const { printed } = relayed();
    const p = fakeChild();
    const relay = printed.relay(p.child);
    p.err('x'.repeat(PRINTED_CAP));
    p.err('\x1bFATAL ERROR: Reached heap limit');
    p.out('stdout is not in it');
    expect(relay.tail()).toBe(`${'x'.repeat(4096 - 32)}\x1bFATAL ERROR: Reached heap limit`);
  });

  it('shows at most PRINTED_CAP bytes, cut on a whole character, and one line counts the rest at the end', () => {
    const { printed, text } = relayed('zz-flood');
    const p = fakeChild();
    const end = printed.relay(p.child).end;
    // 'é' is two bytes: the cap falls inside one, which is dropped whole.
    const first = 'a'.repeat(PRINTED_CAP - 3);
    p.out(first);
    p.out('éé');
    p.err('b'.repeat(1000));
    expect(text()).toBe(`${first}é\n`);
    end();
    expect(text()).toBe(
      `${first}é\nctxbench: zz-flood printed 1,002 more bytes, not shown (at most ${PRINTED_CAP.toLocaleString('en-US')} bytes of what a strategy prints are)\n`,
    );
  });

  it('counts an escape by the bytes it shows: a flood of escape characters shows a quarter as many', () => {
    const { printed, text } = relayed();
    const p = fakeChild();
    const end = printed.relay(p.child).end;
    p.out('\x07'.repeat(PRINTED_CAP));
    end();
    const [shown, line] = text().split('\n');
    expect(shown).toBe('\\x07'.repeat(PRINTED_CAP / 4));
    expect(line).toMatch(
      new RegExp(`^ctxbench: zz printed ${((PRINTED_CAP * 3) / 4).toLocaleString('en-US')} more bytes`),
    );
  });

  it('one budget for all the processes of a strategy; each process counts its own drops; nothing dropped, no line', () => {
    const { printed, text } = relayed();
    const [a, b] = [fakeChild(), fakeChild()];
    const endA = printed.relay(a.child).end;
    const endB = printed.relay(b.child).end;
    a.out('x'.repeat(PRINTED_CAP / 2));
    b.out('y'.repeat(PRINTED_CAP / 2 + 10));
    a.out('z'.repeat(7));
    endA();
    endB();
    const lines = text().split('\n');
    expect(lines[0]).toBe(`${'x'.repeat(PRINTED_CAP / 2)}${'y'.repeat(PRINTED_CAP / 2)}`);
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(/^ctxbench: zz printed 7 more bytes/),
      expect.stringMatching(/^ctxbench: zz printed 10 more bytes/),
      '',
    ]);
    const quiet = relayed();
    const q = fakeChild();
    const endQ = quiet.printed.relay(q.child).end;
    q.out('hello\n');
    endQ();
    expect(quiet.text()).toBe('hello\n');
  });
});
