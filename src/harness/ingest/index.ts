/** Ingest: a git repository's history, or SWE-bench's instances, as a corpus; and the pieces `pack` builds a working tree's pool with. */

export {
  BlobFacts,
  type BlobMemo,
  CaseSkips,
  type Facts,
  poolFiles,
  repositoryName,
  type SkipCounts,
  Skips,
  type StateFile,
} from './blob-facts.js';
export { hashWorkingFile } from './git/git.js';
export { gitFolderAsync, runGitAsync } from './git/git-run.js';
export { stateFiles } from './history-trees.js';
export { ingestRun } from './ingest-run.js';
export type { SkipReason, TreeEntry } from './ingest-types.js';
export { ingestedLabel, ingestPolicy, TASK_LIMIT } from './ingested-corpus.js';
export { type Grammars, loadGrammars } from './outlines/outline.js';
export { buildPool, type Form, formId, parseFormId, shownPath } from './pool-builder.js';
export { codeTerms } from './relevance/relevance-score.js';
export { joinSlices } from './swe-bench/swe-join.js';
export { MatchBudget, parseRules } from './trees/ignore-rules.js';
export {
  classifyPath,
  decideEntry,
  decodeText,
  type IgnoreLevel,
  ignoreDecision,
  ignoredHere,
  isLockfile,
  makeFilter,
} from './trees/tree-files.js';
