/**
 * `ctxbench --help` shows examples, as each command's help does, and every example is one the
 * CLI takes: its command is listed, and each flag it gives is an option of that command.
 */
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';

/** The text of a help page from a heading line (`Examples:`) to the next blank line or the end. */
function section(page: string, heading: string): string[] {
  const lines = page.split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) return [];
  const rest = lines.slice(start + 1);
  const end = rest.indexOf('');
  return end < 0 ? rest : rest.slice(0, end);
}

/** The flags a command's help lists under Options. */
async function optionsOf(command: string): Promise<Set<string>> {
  const r = await cli(command, '--help');
  expect(r.code, command).toBe(0);
  return new Set(section(r.stdout, 'Options:').flatMap((l) => /^ {2}(--[\w-]+)/.exec(l)?.[1] ?? []));
}

describe('ctxbench --help', () => {
  it('shows examples, each a command it lists with flags that command takes', async () => {
    const r = await cli('--help');
    expect(r.code).toBe(0);
    const listed = section(r.stdout, 'Commands:').flatMap((l) => /^ {2}ctxbench (\w+)/.exec(l)?.[1] ?? []);
    expect(listed.length).toBeGreaterThanOrEqual(13);

    const lines = section(r.stdout, 'Examples:');
    // A line is an example, or the wrapped rest of its description (indented past the commands);
    // a wrapped command would start a line with its flags, unreadable as an example.
    for (const line of lines) expect(line, 'an example wrapped').toMatch(/^ {2}ctxbench |^ {20,}\S/);
    const examples = lines.flatMap((l) => /^ {2}(ctxbench [^ ].*?)(?: {2,}|$)/.exec(l)?.[1] ?? []);
    expect(examples.length).toBeGreaterThanOrEqual(5);

    for (const example of examples) {
      const [, command, ...words] = example.split(' ');
      expect(listed, example).toContain(command);
      const options = await optionsOf(command as string);
      for (const flag of words.filter((w) => w.startsWith('--')))
        expect(options.has(flag), `${example}: ${flag}`).toBe(true);
    }
    // The commands a newcomer starts with are among them.
    expect(examples).toContain('ctxbench study');
    expect(examples.some((e) => e.startsWith('ctxbench study --corpus '))).toBe(true);
  });
});
