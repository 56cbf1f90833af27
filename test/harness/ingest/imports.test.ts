/**
 * Import resolution on hand-made file sets, one rule at a time, and the graph built from sources
 * whose imports are known by reading them.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Language } from '../../../src/harness/ingest/ingest-types.js';
import { goModuleOf, importGraph, resolveImport } from '../../../src/harness/ingest/outlines/imports.js';
import { type Grammars, languageOf, loadGrammars } from '../../../src/harness/ingest/outlines/outline.js';

let grammars: Grammars;
beforeAll(async () => {
  grammars = await loadGrammars();
});

const set = (...paths: string[]): ReadonlySet<string> => new Set(paths);

describe('resolveImport: TypeScript and JavaScript', () => {
  const files = set(
    'src/main.ts',
    'src/util.ts',
    'src/view.tsx',
    'src/legacy.js',
    'src/types.d.ts',
    'src/config.mts',
    'src/lib/index.ts',
    'src/lib/deep/a.ts',
    'src/data.json',
    'index.js',
    'src/both.js',
    'src/both.ts',
  );
  const ts = (from: string, specifier: string): string[] =>
    resolveImport('typescript', from, specifier, files, {});

  it('tries the exact path first, then each extension in order', () => {
    expect(ts('src/main.ts', './data.json')).toEqual(['src/data.json']);
    expect(ts('src/main.ts', './util')).toEqual(['src/util.ts']);
    expect(ts('src/main.ts', './view')).toEqual(['src/view.tsx']);
    expect(ts('src/main.ts', './types')).toEqual(['src/types.d.ts']);
    expect(ts('src/main.ts', './legacy')).toEqual(['src/legacy.js']);
    // An exact file wins over the source it may have been emitted from.
    expect(ts('src/main.ts', './both.js')).toEqual(['src/both.js']);
  });

  it('maps NodeNext suffixes to the sources: .js to .ts or .tsx, .mjs to .mts', () => {
    expect(ts('src/main.ts', './util.js')).toEqual(['src/util.ts']);
    expect(ts('src/main.ts', './view.js')).toEqual(['src/view.tsx']);
    expect(ts('src/main.ts', './view.jsx')).toEqual(['src/view.tsx']);
    expect(ts('src/main.ts', './config.mjs')).toEqual(['src/config.mts']);
  });

  it('resolves folders to their index file, and climbs with ../', () => {
    expect(ts('src/main.ts', './lib')).toEqual(['src/lib/index.ts']);
    expect(ts('src/main.ts', './lib/')).toEqual(['src/lib/index.ts']);
    expect(ts('src/lib/deep/a.ts', '..')).toEqual(['src/lib/index.ts']);
    expect(ts('src/lib/deep/a.ts', '../../util.js')).toEqual(['src/util.ts']);
    expect(ts('src/main.ts', '../index.js')).toEqual(['index.js']);
    expect(ts('src/main.ts', '..')).toEqual(['index.js']);
  });

  it('gives [] for packages, missing files and paths out of the repository', () => {
    expect(ts('src/main.ts', 'react')).toEqual([]);
    expect(ts('src/main.ts', 'node:fs')).toEqual([]);
    expect(ts('src/main.ts', '@scope/pkg/util')).toEqual([]);
    expect(ts('src/main.ts', './missing')).toEqual([]);
    expect(ts('src/main.ts', '../../outside')).toEqual([]);
    expect(ts('src/main.ts', '/abs/util')).toEqual([]);
  });

  it('resolves the same way for JavaScript and TSX importers', () => {
    expect(resolveImport('javascript', 'index.js', './src/util.js', files, {})).toEqual(['src/util.ts']);
    expect(resolveImport('tsx', 'src/view.tsx', './lib/index.js', files, {})).toEqual(['src/lib/index.ts']);
  });
});

describe('resolveImport: Python', () => {
  const files = set(
    'pkg/__init__.py',
    'pkg/mod.py',
    'pkg/sub/__init__.py',
    'pkg/sub/leaf.py',
    'pkg/sub/inner/x.py',
    'src/app/__init__.py',
    'src/app/core.py',
    'tool.py',
  );
  const py = (from: string, specifier: string): string[] =>
    resolveImport('python', from, specifier, files, {});

  it('resolves absolute module paths to a module file or a package __init__', () => {
    expect(py('tool.py', 'pkg.mod')).toEqual(['pkg/mod.py']);
    expect(py('tool.py', 'pkg.sub')).toEqual(['pkg/sub/__init__.py']);
    expect(py('tool.py', 'pkg')).toEqual(['pkg/__init__.py']);
    expect(py('pkg/mod.py', 'tool')).toEqual(['tool.py']);
  });

  it('looks under a src/ root too', () => {
    expect(py('tool.py', 'app.core')).toEqual(['src/app/core.py']);
    expect(py('tool.py', 'app')).toEqual(['src/app/__init__.py']);
  });

  it('resolves `from m import n` as the submodule m.n when it is one, and nothing when n is not', () => {
    expect(py('tool.py', 'pkg.sub.leaf')).toEqual(['pkg/sub/leaf.py']);
    expect(py('tool.py', 'pkg.mod.SomeClass')).toEqual([]);
  });

  it('resolves relative imports against the package folder, one folder up per extra dot', () => {
    expect(py('pkg/sub/leaf.py', '.')).toEqual(['pkg/sub/__init__.py']);
    expect(py('pkg/sub/leaf.py', '.inner.x')).toEqual(['pkg/sub/inner/x.py']);
    expect(py('pkg/sub/leaf.py', '..')).toEqual(['pkg/__init__.py']);
    expect(py('pkg/sub/leaf.py', '..mod')).toEqual(['pkg/mod.py']);
    expect(py('pkg/sub/inner/x.py', '...mod')).toEqual(['pkg/mod.py']);
    expect(py('pkg/sub/__init__.py', '.leaf')).toEqual(['pkg/sub/leaf.py']);
    expect(py('pkg/mod.py', '....far')).toEqual([]);
  });

  it('gives [] for the standard library and packages', () => {
    expect(py('tool.py', 'os')).toEqual([]);
    expect(py('tool.py', 'numpy.linalg')).toEqual([]);
  });
});

describe('resolveImport: Go', () => {
  const files = set(
    'go.mod',
    'main.go',
    'root_test.go',
    'pkg/util/strings.go',
    'pkg/util/bytes.go',
    'pkg/util/strings_test.go',
    'pkg/util/README.md',
    'pkg/util/deeper/more.go',
    'internal/db/db.go',
  );
  const context = { goModule: 'example.com/m' };
  const go = (specifier: string): string[] => resolveImport('go', 'main.go', specifier, files, context);

  it('names every non-test .go file of the folder, sorted, not those of subfolders', () => {
    expect(go('example.com/m/pkg/util')).toEqual(['pkg/util/bytes.go', 'pkg/util/strings.go']);
    expect(go('example.com/m/internal/db')).toEqual(['internal/db/db.go']);
    expect(go('example.com/m')).toEqual(['main.go']);
  });

  it('gives [] for the standard library, other modules and a prefix that is not a path segment', () => {
    expect(go('fmt')).toEqual([]);
    expect(go('github.com/other/lib')).toEqual([]);
    expect(go('example.com/mother/pkg/util')).toEqual([]);
    expect(go('example.com/m/absent')).toEqual([]);
  });

  it('gives [] without a module path', () => {
    expect(resolveImport('go', 'main.go', 'example.com/m/pkg/util', files, {})).toEqual([]);
  });
});

describe('goModuleOf', () => {
  it('reads the module line', () => {
    expect(goModuleOf('// header\nmodule example.com/m // the module\n\ngo 1.22\n')).toBe('example.com/m');
    expect(goModuleOf('module "example.com/quoted"\n')).toBe('example.com/quoted');
    expect(goModuleOf('\r\nmodule github.com/a/b\r\nrequire x v1\r\n')).toBe('github.com/a/b');
  });

  it('gives undefined without one', () => {
    expect(goModuleOf('go 1.22\nrequire example.com/x v1.0.0\n')).toBeUndefined();
    expect(goModuleOf('')).toBeUndefined();
  });
});

describe('resolveImport: Rust', () => {
  const files = set(
    'Cargo.toml',
    'src/lib.rs',
    'src/parser.rs',
    'src/parser/lexer.rs',
    'src/net/mod.rs',
    'src/net/tcp.rs',
    'src/net/tcp/conn.rs',
    'src/a/b.rs',
    'src/a/mod.rs',
  );
  const rs = (from: string, specifier: string): string[] => resolveImport('rust', from, specifier, files, {});

  it('resolves `mod foo;` beside lib.rs and mod.rs, and under a folder named after other files', () => {
    expect(rs('src/lib.rs', 'parser')).toEqual(['src/parser.rs']);
    expect(rs('src/lib.rs', 'net')).toEqual(['src/net/mod.rs']);
    expect(rs('src/net/mod.rs', 'tcp')).toEqual(['src/net/tcp.rs']);
    expect(rs('src/parser.rs', 'lexer')).toEqual(['src/parser/lexer.rs']);
    expect(rs('src/net/tcp.rs', 'conn')).toEqual(['src/net/tcp/conn.rs']);
    expect(rs('src/lib.rs', 'absent')).toEqual([]);
  });

  it('resolves crate:: paths from the crate root by the longest prefix that is a module file', () => {
    expect(rs('src/net/tcp.rs', 'crate::parser::lexer')).toEqual(['src/parser/lexer.rs']);
    expect(rs('src/net/tcp.rs', 'crate::parser::lexer::Token')).toEqual(['src/parser/lexer.rs']);
    expect(rs('src/net/tcp.rs', 'crate::parser::Parser')).toEqual(['src/parser.rs']);
    expect(rs('src/parser.rs', 'crate::net::Socket')).toEqual(['src/net/mod.rs']);
    expect(rs('src/parser.rs', 'crate::a::b::C')).toEqual(['src/a/b.rs']);
    expect(rs('src/parser.rs', 'crate::Error')).toEqual(['src/lib.rs']);
    expect(rs('src/parser.rs', 'crate')).toEqual(['src/lib.rs']);
  });

  it('resolves self:: and super:: against the module folder', () => {
    expect(rs('src/net/mod.rs', 'self::tcp::Stream')).toEqual(['src/net/tcp.rs']);
    expect(rs('src/net/tcp.rs', 'self::conn')).toEqual(['src/net/tcp/conn.rs']);
    expect(rs('src/net/tcp.rs', 'super::Socket')).toEqual(['src/net/mod.rs']);
    expect(rs('src/net/tcp/conn.rs', 'super::Listener')).toEqual(['src/net/tcp.rs']);
    expect(rs('src/net/tcp/conn.rs', 'super::super::tcp')).toEqual(['src/net/tcp.rs']);
    expect(rs('src/parser/lexer.rs', 'super::super::net::tcp')).toEqual(['src/net/tcp.rs']);
    expect(rs('src/net/tcp.rs', 'super::super::parser::lexer')).toEqual(['src/parser/lexer.rs']);
  });

  it('gives [] for other crates and files outside any crate', () => {
    expect(rs('src/lib.rs', 'std::io')).toEqual([]);
    expect(rs('build.rs', 'crate::parser')).toEqual([]);
  });
});

describe('importGraph', () => {
  const sources: Record<string, string> = {
    'src/main.ts': [
      "import { util } from './util.js';",
      "import './lib/index.js';",
      "import React from 'react';",
      "export { again } from './util.js';",
      "const self = require('./main');",
    ].join('\n'),
    'src/util.ts': "import type { X } from './lib';\nexport const util = 1;\n",
    'src/lib/index.ts': 'export const lib = 1;\n',
    'pkg/__init__.py': 'from .mod import thing\nfrom . import sub\n',
    'pkg/mod.py': 'import os\nfrom pkg.sub import leaf\n',
    'pkg/sub/__init__.py': '',
    'pkg/sub/leaf.py': 'def leaf(): pass\n',
    'main.go': 'package main\nimport (\n\t"fmt"\n\t"example.com/m/util"\n)\n',
    'util/a.go': 'package util\n',
    'util/b.go': 'package util\nimport "example.com/m/util"\n',
    'src/lib.rs': 'mod parser;\nuse crate::parser::Tree;\nuse std::io;\n',
    'src/parser.rs': 'use super::Error;\n',
    'README.md': "import './src/util.js'\n",
  };
  const files = new Map<string, { language: Language | null; text: string }>(
    Object.entries(sources).map(([path, text]) => [path, { language: languageOf(path), text }]),
  );

  it('gives each file its repository imports, sorted and once, never itself', () => {
    const graph = importGraph(files, grammars, { goModule: 'example.com/m' });
    expect(Object.fromEntries(graph)).toEqual({
      'src/main.ts': ['src/lib/index.ts', 'src/util.ts'],
      'src/util.ts': ['src/lib/index.ts'],
      'src/lib/index.ts': [],
      'pkg/__init__.py': ['pkg/mod.py', 'pkg/sub/__init__.py'],
      'pkg/mod.py': ['pkg/sub/__init__.py', 'pkg/sub/leaf.py'],
      'pkg/sub/__init__.py': [],
      'pkg/sub/leaf.py': [],
      'main.go': ['util/a.go', 'util/b.go'],
      'util/a.go': [],
      'util/b.go': ['util/a.go'],
      'src/lib.rs': ['src/parser.rs'],
      'src/parser.rs': ['src/lib.rs'],
      'README.md': [],
    });
  });

  it('leaves Go module imports unresolved without the module path', () => {
    const graph = importGraph(files, grammars, {});
    expect(graph.get('main.go')).toEqual([]);
  });
});

describe('resolveImport: kept candidates', () => {
  it('answers from each call own files, though the paths tried are kept between calls', () => {
    const resolve = (language: 'typescript' | 'python', from: string, spec: string, ...paths: string[]) =>
      resolveImport(language, from, spec, new Set(paths), {});
    expect(resolve('typescript', 'src/a.ts', './b.js', 'src/b.ts')).toEqual(['src/b.ts']);
    expect(resolve('typescript', 'src/a.ts', './b.js', 'src/b.js', 'src/b.ts')).toEqual(['src/b.js']);
    expect(resolve('typescript', 'src/a.ts', './b.js')).toEqual([]);
    expect(resolve('python', 'pkg/a.py', '.b', 'pkg/b.py')).toEqual(['pkg/b.py']);
    expect(resolve('python', 'pkg/a.py', '.b', 'pkg/b/__init__.py')).toEqual(['pkg/b/__init__.py']);
    expect(resolve('python', 'pkg/a.py', '.b')).toEqual([]);
  });
});
