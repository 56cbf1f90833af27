/**
 * The relevance model's signals, named and grouped: relevance-features.ts computes them,
 * relevance-model.json weighs them in this order.
 */

/**
 * The features by family, in the order of the model's weights: the names and size the model began
 * with (`names`), then issue 49's evidence; scripts/fit-relevance.mjs leaves each family out in
 * turn. docs/real-data.md says what each means.
 */
export const FAMILIES = {
  names: [
    'bm25',
    'bm25_log_rank',
    'path_named',
    'file_name_named',
    'stem_named',
    'module_named',
    'frame_named',
    'identifiers_declared',
    'import_neighbour',
    'test_subject_named',
    'test_file',
    'source_file',
    'log_size',
  ],
  declarations: ['decl_bm25', 'decl_bm25_log_rank'],
  verbatim: ['quoted_found', 'quoted_rare', 'message_found'],
  traceback: ['frame_rank', 'frame_function'],
  conventions: ['convention_stem', 'convention_declared'],
  graph: ['graph_rank'],
  snippets: ['pair_declared', 'snippet_imported', 'import_declared', 'snippet_used'],
  kinds: ['kind_doc', 'kind_test_folder', 'kind_init', 'kind_vendored'],
} as const;

/** The features, in the order of the model's weights. */
export const FEATURES = [
  ...FAMILIES.names,
  ...FAMILIES.declarations,
  ...FAMILIES.verbatim,
  ...FAMILIES.traceback,
  ...FAMILIES.conventions,
  ...FAMILIES.graph,
  ...FAMILIES.snippets,
  ...FAMILIES.kinds,
] as const;
export type Feature = (typeof FEATURES)[number];
