/** The languages the tree-sitter grammars of tree-sitter-wasms parse here, and a path's language. */

const GRAMMAR_LANGUAGES = ['typescript', 'tsx', 'javascript', 'python', 'go', 'rust'] as const;
export type Language = (typeof GRAMMAR_LANGUAGES)[number];

const EXTENSIONS: ReadonlyMap<string, Language> = new Map([
  ['.ts', 'typescript'],
  ['.mts', 'typescript'],
  ['.cts', 'typescript'],
  ['.tsx', 'tsx'],
  ['.js', 'javascript'],
  ['.mjs', 'javascript'],
  ['.cjs', 'javascript'],
  // The javascript grammar parses JSX; the tsx one would reject the untyped code JSX files hold.
  ['.jsx', 'javascript'],
  ['.py', 'python'],
  ['.go', 'go'],
  ['.rs', 'rust'],
]);

/** The grammar a path is parsed with, by its extension (`.d.ts` is TypeScript). */
export function languageOf(path: string): Language | null {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return null;
  return EXTENSIONS.get(name.slice(dot).toLowerCase()) ?? null;
}
