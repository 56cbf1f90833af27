/**
 * `bm25-swe`: the SWE-bench paper's retrieval (the kit's, as `bm25` runs it) on the documents
 * SWE-bench's own code indexes, so that a claim against BM25 is made against the stronger of the
 * two readings. `bm25` indexes every whole file of the pool, as the paper's text describes the
 * retrieval; the code (inference/make_datasets/bm25_retrieval.py, `build_documents`, calling
 * utils.py `list_files(root_dir, include_tests=False)`) lists `Path(root_dir).rglob("*.py")` and
 * drops every path `is_test` flags:
 *
 *     words = set(re.split(r" |_|\/|\.", name.lower()))
 *     return any(word in words for word in ["test", "tests", "testing"])
 *
 * So a path is a test when, lower-cased and split at spaces, underscores, slashes and dots, one of
 * its words is `test`, `tests` or `testing`: `tests/foo.py`, `testing/x.py`, `foo_test.py`,
 * `test_foo.py` are tests; `conftest.py`, `latest.py`, `pytest/main.py` and `foo-test.py` (a
 * hyphen does not split) are not. A document is still the path and the file's text (the kit's
 * `documentText`, `file_name_and_contents`), scored by Pyserini's BM25 over those documents
 * alone: fewer documents change the document frequencies too, as they do in SWE-bench's index.
 *
 * Differences that stay: SWE-bench tests the path under its working folder
 * (`<root>/repo__owner__name/<path>`), here the path inside the repository, whose words are the
 * same but for that folder's (no test word in SWE-bench's default layout); and the pool decides
 * which files exist at all (ingest leaves out binary, generated, vendored and very large files,
 * which SWE-bench's `rglob` would list).
 *
 * A pool with no Python file that is not a test (a TypeScript repository, a hand-written corpus)
 * would give SWE-bench's code an empty index and no file at all; here it indexes every document
 * that is not a test by the same rule instead, so the strategy answers on any corpus. Which rule
 * chose the documents is `extras.index`: `python`, or `not-tests` for that fallback.
 */
import {
  bm25Selector,
  type ContextCandidate,
  type IndexChoice,
  type Strategy,
} from '../src/harness/kit/index.js';

const TEST_WORDS: readonly string[] = ['test', 'tests', 'testing'];

/** SWE-bench's `is_test`: one of the path's words, split at ` `, `_`, `/` and `.`, is a test word. */
export const isTest = (path: string): boolean =>
  path
    .toLowerCase()
    .split(/[ _/.]/)
    .some((w) => TEST_WORDS.includes(w));

/** What `rglob("*.py")` lists: a name ending in `.py`, case and all. */
export const isPython = (path: string): boolean => path.endsWith('.py');

/** The documents SWE-bench's code indexes, or every one that is not a test where that is none. */
export function sweBenchIndex(documents: readonly ContextCandidate[]): IndexChoice {
  const notTests = documents.filter((d) => !isTest(d.content_identity));
  const python = notTests.filter((d) => isPython(d.content_identity));
  return python.length > 0
    ? {
        documents: python,
        left: {
          code: 'not-indexed',
          detail: "not a Python file that is not a test: SWE-bench's code does not index it",
        },
        extras: { index: 'python' },
      }
    : {
        documents: notTests,
        left: {
          code: 'not-indexed',
          detail: 'a test, by the path rule of SWE-bench (no Python file here to index)',
        },
        extras: { index: 'not-tests' },
      };
}

const bm25Swe: Strategy = {
  name: 'bm25-swe',
  description:
    "the SWE-bench paper's retrieval over what its code indexes: Python files that are not tests, whole, best first",
  assemble: bm25Selector({ name: 'bm25-swe', fill: 'skip', index: sweBenchIndex }),
};

export default bm25Swe;
