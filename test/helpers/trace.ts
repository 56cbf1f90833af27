import type { CompileOutput, TraceEntry } from '../../src/compiler/index.js';

/** The trace entry of one candidate; fails the test when there is none. */
export function entry(out: CompileOutput, id: string): TraceEntry {
  const e = out.result.trace.entries.find((x) => x.candidate_id === id);
  if (e === undefined) throw new Error(`no trace entry for ${id}`);
  return e;
}

export const admittedIds = (out: CompileOutput): string[] => out.bundle?.items.map((i) => i.id) ?? [];
