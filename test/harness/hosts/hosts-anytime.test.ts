/**
 * What crosses to a strategy's process beside its inputs: StrategyInput.anytime per compilation
 * (set for `pack` and MCP, never for a study), and the tokenizer a process loads while it waits
 * (HostOptions.counts), which changes no answer.
 */
import { describe, expect, it } from 'vitest';
import { caseInputs, Hosts } from '../../../src/harness/hosts/index.js';
import { caseNamed, corpus } from '../../helpers/corpus.js';
import { outsidePlugin } from '../../helpers/plugins.js';

const inputs = caseInputs(caseNamed('dependency-trap'), 'medium', corpus().policy, undefined);

/** A plug-in that says what it was given. */
const teller = () =>
  outsidePlugin(
    'teller',
    `export default { name: 'teller', description: 'says whether it was asked for an answer now', assemble(input) {
  return { admitted: [], extras: { anytime: input.anytime ?? 'absent' } };
} };
`,
  );

/** What the plug-in said it was given. */
const told = (answer: unknown): unknown =>
  (JSON.parse((answer as { text: string }).text) as { extras: { anytime: unknown } }).extras.anytime;

describe('a strategy process is told', () => {
  it('anytime on the compilation that asks for it, and on no other, the loaded tokenizer changing nothing', async () => {
    const ref = teller();
    for (const counts of [undefined, 'o200k'] as const) {
      const hosts = new Hosts({ timeout: 60_000, keep: 1, secrets: [], counts });
      try {
        await hosts.describe([ref]);
        const now = await hosts.ask(ref, 'k', { ...inputs, anytime: true });
        const proven = await hosts.ask(ref, 'k', inputs);
        expect(told(now)).toBe(true);
        expect(told(proven)).toBe('absent');
      } finally {
        hosts.close();
      }
    }
  }, 60_000);
});
