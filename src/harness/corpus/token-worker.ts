/** The real-token audit's worker thread (`token-audit.ts`): loads both vocabularies, then counts. */
import { parentPort } from 'node:worker_threads';
import { realTokens } from './bpe.js';

// Loaded at once, before the first text arrives: that is the point of the thread.
realTokens('');
parentPort?.on('message', ({ id, text }: { id: number; text: string }) => {
  try {
    parentPort?.postMessage({ id, counts: realTokens(text) });
  } catch (e) {
    parentPort?.postMessage({ id, error: e instanceof Error ? e.message : String(e) });
  }
});
