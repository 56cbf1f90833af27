/**
 * Real token counts of text, by OpenAI's BPE vocabularies shipped inside gpt-tokenizer (offline):
 * what a model would actually be sent, beside the ruler's declared counts and overhead; and the
 * same tokenizers lent to the compiler, for a policy whose `overhead_tokenizer` names one
 * (docs/compiler.md §17.7).
 */
import { registerTokenCounter } from '../../compiler/index.js';
import { TOKENIZERS } from '../vocabulary.js';
import { countTokens } from './bpe.js';

export { countTokens, memoCounts, realTokens } from './bpe.js';

/** Every real tokenizer, registered with the compiler as an overhead counter (a repeat replaces). */
export function registerRealCounters(): void {
  for (const t of TOKENIZERS) registerTokenCounter(t, (text) => countTokens(t, text));
}

// Registered once, when this module is first imported: a vocabulary loads only when it first
// counts, so this costs nothing. Wherever a policy enters a process (a file read, `--tokenizer`,
// a strategy's process given its input) imports this module, so nothing the harness compiles or
// measures meets an unregistered name.
registerRealCounters();
