/**
 * The files of a run folder (docs/study.md, "The run folder"), each named here once: every other
 * module reaches them through these names, so that no reader or guard spells a file of its own.
 */
import path from 'node:path';

/** Each file a finished run folder holds, by what it is. */
export const RUN_FILE = {
  rows: 'rows.jsonl',
  compilations: 'compilations.jsonl',
  csv: 'rows.csv',
  summary: 'summary.json',
  markdown: 'report.md',
  html: 'report.html',
  manifest: 'manifest.json',
} as const;

export type RunFileName = (typeof RUN_FILE)[keyof typeof RUN_FILE];

/** What a stopped run is (its corpus, strategies, shard), in `<out>.partial` until it finishes. */
export const RUN_IDENTITY = 'run.json';

/**
 * Every file a run folder holds, and nothing else (`validate` names any other), in the order
 * `validate` reports them: the one list of run files.
 */
export const RUN_FILES: readonly RunFileName[] = [
  RUN_FILE.rows,
  RUN_FILE.compilations,
  RUN_FILE.csv,
  RUN_FILE.summary,
  RUN_FILE.markdown,
  RUN_FILE.html,
  RUN_FILE.manifest,
];

/** The run files that mark a folder as a run folder, for `--force`: only a run writes them. */
export const RUN_MARKS: readonly RunFileName[] = [RUN_FILE.rows, RUN_FILE.manifest];

/** The run files a command reads (the others are made of these), as paths in `dir`: what its output must not overwrite. */
export const runInputs = (dir: string): string[] =>
  [RUN_FILE.rows, RUN_FILE.compilations, RUN_FILE.manifest].map((f) => path.join(dir, f));
