/**
 * Outlines and import specifiers of hand-written sources in each language: the expected lines are
 * read off the sources by the module header's format (line number, two spaces per nesting level,
 * the header up to its body, first line only), not taken from the code's output.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type Grammars, languageOf, loadGrammars } from '../../../src/harness/ingest/outlines/outline.js';

let grammars: Grammars;
beforeAll(async () => {
  grammars = await loadGrammars();
});

const lines = (...text: string[]): string => text.join('\n');

describe('languageOf', () => {
  it('maps extensions to grammars', () => {
    expect(languageOf('src/a.ts')).toBe('typescript');
    expect(languageOf('src/a.mts')).toBe('typescript');
    expect(languageOf('src/a.cts')).toBe('typescript');
    expect(languageOf('types/index.d.ts')).toBe('typescript');
    expect(languageOf('ui/App.tsx')).toBe('tsx');
    expect(languageOf('a.js')).toBe('javascript');
    expect(languageOf('a.mjs')).toBe('javascript');
    expect(languageOf('a.cjs')).toBe('javascript');
    expect(languageOf('ui/App.jsx')).toBe('javascript');
    expect(languageOf('pkg/mod.py')).toBe('python');
    expect(languageOf('cmd/main.go')).toBe('go');
    expect(languageOf('src/lib.rs')).toBe('rust');
  });

  it('gives null for other files, dotfiles and names without an extension', () => {
    expect(languageOf('README.md')).toBeNull();
    expect(languageOf('Makefile')).toBeNull();
    expect(languageOf('.ts')).toBeNull();
    expect(languageOf('dir.ts/file')).toBeNull();
    expect(languageOf('a.json')).toBeNull();
  });
});

describe('loadGrammars', () => {
  it('is memoised', async () => {
    expect(await loadGrammars()).toBe(grammars);
  });
});

describe('outline: TypeScript', () => {
  const source = lines(
    "import { x } from './x.js';",
    '',
    '/** Parses. */',
    'export function parse(text: string): Tree {',
    '  return build(text);',
    '}',
    '',
    'export default class Parser<T> extends Base implements Runner {',
    '  private count: number = 0;',
    '  constructor(readonly name: string) {',
    '    super();',
    '  }',
    '  async run(input: T): Promise<void> {}',
    '}',
    '',
    'export abstract class Shape {',
    '  abstract area(): number;',
    '}',
    'interface Options {',
    '  depth: number;',
    '}',
    'export type Id = string;',
    'enum Color { Red, Green }',
    'export const limit = 10;',
    'const hidden = 3;',
    'function helper(',
    '  a: number,',
    '): number {',
    '  return a;',
    '}',
  );

  it('lists declarations with nested members indented', () => {
    expect(grammars.outline('typescript', source)).toBe(
      lines(
        '4: export function parse(text: string): Tree',
        '8: export default class Parser<T> extends Base implements Runner',
        '9:   private count: number = 0',
        '10:   constructor(readonly name: string)',
        '13:   async run(input: T): Promise<void>',
        '16: export abstract class Shape',
        '17:   abstract area(): number',
        '19: interface Options',
        '22: export type Id = string',
        '23: enum Color',
        '24: export const limit = 10',
        '26: function helper(',
      ),
    );
  });

  it('outlines namespaces, ambient modules and overload signatures', () => {
    const text = lines(
      "declare module 'store' {",
      '  export function open(path: string): Store;',
      '}',
      'namespace Util {',
      '  export class Cache {}',
      '}',
      'function pick(a: string): string;',
      'function pick(a: number): number;',
      'function pick(a: unknown) {',
      '  return a;',
      '}',
    );
    expect(grammars.outline('typescript', text)).toBe(
      lines(
        "1: declare module 'store'",
        '2:   export function open(path: string): Store',
        '4: namespace Util',
        '5:   export class Cache',
        '7: function pick(a: string): string',
        '8: function pick(a: number): number',
        '9: function pick(a: unknown)',
      ),
    );
  });

  it('starts a decorated class at its keyword', () => {
    const text = lines('@Component({})', 'class Widget {', '  @Input() name: string;', '}');
    expect(grammars.outline('typescript', text)).toBe(lines('2: class Widget', '3:   name: string'));
  });

  it('outlines what it can of a file with a syntax error', () => {
    const text = lines(
      'export function ok(a: number): void {}',
      'class Broken {',
      '  method(a: number {',
      '    return 1;',
      '  }',
      '  other(): string { return ""; }',
      '}',
      'export interface After { x: number }',
    );
    const outline = grammars.outline('typescript', text);
    expect(outline).toContain('1: export function ok(a: number): void');
    expect(outline).toContain('2: class Broken');
    expect(outline).toContain('6:   other(): string');
    expect(outline).toContain('8: export interface After');
  });

  it('never throws on text that is not TypeScript at all', () => {
    expect(() => grammars.outline('typescript', '}}}{{{ ))) <<< \u0000 \uFFFF')).not.toThrow();
    expect(grammars.outline('typescript', ')))')).toBe('');
  });

  it('gives the empty string for a file without declarations', () => {
    expect(grammars.outline('typescript', "import './side.js';\nconsole.log(1);\nlet x = 2;\n")).toBe('');
    expect(grammars.outline('typescript', '')).toBe('');
  });

  it('counts lines past astral characters and CRLF line ends', () => {
    const text = "const s = '😀😀';\r\nexport function f(): void {}\r\n";
    expect(grammars.outline('typescript', text)).toBe('2: export function f(): void');
  });
});

describe('outline: TSX and JavaScript', () => {
  it('parses TSX with JSX in bodies', () => {
    const text = lines(
      'export function App(props: Props): JSX.Element {',
      '  return <div>{props.name}</div>;',
      '}',
      'export const Small = () => <span />;',
    );
    expect(grammars.outline('tsx', text)).toBe(
      lines('1: export function App(props: Props): JSX.Element', '4: export const Small = () => <span />'),
    );
  });

  it('parses JavaScript with classes, fields, generators and JSX', () => {
    const text = lines(
      'export default function () {}',
      'export class Store {',
      '  #items = [];',
      '  static create() { return new Store(); }',
      '  *entries() {}',
      '}',
      'var local = 1;',
      'export var view = () => <div />;',
      'function* ids() {}',
    );
    expect(grammars.outline('javascript', text)).toBe(
      lines(
        '1: export default function ()',
        '2: export class Store',
        '3:   #items = []',
        '4:   static create()',
        '5:   *entries()',
        '8: export var view = () => <div />',
        '9: function* ids()',
      ),
    );
  });
});

describe('outline: Python', () => {
  it('lists classes, methods indented, async defs, decorated defs at their def line', () => {
    const text = lines(
      'import os',
      '',
      'class Store(Base):',
      '    """A store."""',
      '    limit: int = 3',
      '',
      '    @staticmethod',
      '    def create(path: str) -> "Store":',
      '        def inner():',
      '            pass',
      '        return Store()',
      '',
      '    async def close(self):',
      '        pass',
      '',
      '    class Meta:',
      '        def option(self): pass',
      '',
      'async def main(argv: list[str],',
      '               env: dict) -> int:',
      '    return 0',
    );
    expect(grammars.outline('python', text)).toBe(
      lines(
        '3: class Store(Base)',
        '8:   def create(path: str) -> "Store"',
        '13:   async def close(self)',
        '16:   class Meta',
        '17:     def option(self)',
        '19: async def main(argv: list[str],',
      ),
    );
  });

  it('outlines around a syntax error', () => {
    const text = lines(
      'def good(a):',
      '    return a',
      '',
      'def bad(:',
      '    pass',
      '',
      'class After:',
      '    pass',
    );
    const outline = grammars.outline('python', text);
    expect(outline).toContain('1: def good(a)');
    expect(outline).toContain('7: class After');
  });

  it('leaves out a comment after the colon, and keeps a lambda default with its own colon', () => {
    const text = lines(
      'class Plain:  # a comment',
      '    def f(self, key=lambda x: x) -> int:  # note',
      '        pass',
    );
    expect(grammars.outline('python', text)).toBe(
      lines('1: class Plain', '2:   def f(self, key=lambda x: x) -> int'),
    );
  });

  it('gives the empty string for a script', () => {
    expect(grammars.outline('python', 'import sys\nprint(sys.argv)\nx = 1\n')).toBe('');
  });
});

describe('outline: Go', () => {
  it('lists funcs with receivers, types, and consts and vars by spec', () => {
    const text = lines(
      'package shapes',
      '',
      'import "fmt"',
      '',
      'const Pi = 3.14',
      'var (',
      '\tcount int',
      '\tname  = "x"',
      ')',
      'type Point struct {',
      '\tX, Y int',
      '}',
      'type Shape interface {',
      '\tArea() float64',
      '}',
      'type ID = string',
      'type (',
      '\tMeters float64',
      ')',
      'func (p *Point) Move(dx int) error {',
      '\treturn nil',
      '}',
      'func Map[T any](xs []T) []T { return xs }',
    );
    expect(grammars.outline('go', text)).toBe(
      lines(
        '5: const Pi = 3.14',
        '7: var count int',
        '8: var name  = "x"',
        '10: type Point struct',
        '13: type Shape interface',
        '16: type ID = string',
        '18: type Meters float64',
        '20: func (p *Point) Move(dx int) error',
        '23: func Map[T any](xs []T) []T',
      ),
    );
  });

  it('gives the empty string for a file with only a package clause and imports', () => {
    expect(grammars.outline('go', 'package main\n\nimport "os"\n')).toBe('');
  });
});

describe('outline: Rust', () => {
  it('lists items, with the functions of traits, impls and inline modules indented', () => {
    const text = lines(
      'mod parser;',
      'pub mod util {',
      '    pub fn trim(s: &str) -> &str { s }',
      '}',
      'use crate::parser::Tree;',
      '#[derive(Debug)]',
      'pub struct Point<T> {',
      '    x: T,',
      '}',
      'struct Unit;',
      'pub enum Shape { Circle(f64), Square }',
      'pub trait Area: Clone {',
      '    fn area(&self) -> f64;',
      '    fn twice(&self) -> f64 { self.area() * 2.0 }',
      '}',
      'impl<T> Area for Point<T> where T: Clone {',
      '    fn area(&self) -> f64 {',
      '        0.0',
      '    }',
      '}',
      'pub type Points = Vec<Point<f64>>;',
      'pub const MAX: usize = 8;',
      'static mut COUNT: u32 = 0;',
      'pub async fn run(',
      '    args: Vec<String>,',
      ') -> Result<(), Error> {',
      '    Ok(())',
      '}',
    );
    expect(grammars.outline('rust', text)).toBe(
      lines(
        '1: mod parser',
        '2: pub mod util',
        '3:   pub fn trim(s: &str) -> &str',
        '7: pub struct Point<T>',
        '10: struct Unit',
        '11: pub enum Shape',
        '12: pub trait Area: Clone',
        '13:   fn area(&self) -> f64',
        '14:   fn twice(&self) -> f64',
        '16: impl<T> Area for Point<T> where T: Clone',
        '17:   fn area(&self) -> f64',
        '21: pub type Points = Vec<Point<f64>>',
        '22: pub const MAX: usize = 8',
        '23: static mut COUNT: u32 = 0',
        '24: pub async fn run(',
      ),
    );
  });

  it('outlines around a syntax error', () => {
    const text = lines('fn good() {}', 'fn bad( {', '}', 'struct After;');
    const outline = grammars.outline('rust', text);
    expect(outline).toContain('1: fn good()');
    expect(outline).toContain('4: struct After');
  });

  it('gives the empty string for a file of uses only', () => {
    expect(grammars.outline('rust', 'use std::io;\n// nothing else\n')).toBe('');
  });
});

describe('imports', () => {
  it('finds every TypeScript and JavaScript form, in source order, each once', () => {
    const text = lines(
      "import def, { named } from './a.js';",
      "import type { T } from '../types';",
      "import './side-effect';",
      "import * as ns from 'node:fs';",
      "import legacy = require('./legacy');",
      "export { b } from './b.js';",
      "export * from 'pkg';",
      "const r = require('./r');",
      "const dynamic = await import('./lazy.js');",
      'const notFixed = require(name);',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source holds a template literal.
      'const tpl = import(`./t${x}`);',
      'const plain = import(`./plain.js`);',
      "const again = require('./r');",
      "obj.require('./not-a-require-call');",
    );
    expect(grammars.imports('typescript', text)).toEqual([
      './a.js',
      '../types',
      './side-effect',
      'node:fs',
      './legacy',
      './b.js',
      'pkg',
      './r',
      './lazy.js',
      './plain.js',
    ]);
    expect(grammars.imports('javascript', "const a = require('./a');\nimport('b').then(f);\n")).toEqual([
      './a',
      'b',
    ]);
    expect(grammars.imports('tsx', "import React from 'react';\nexport const X = () => <div />;\n")).toEqual([
      'react',
    ]);
  });

  it('finds Python imports, with the leading dots kept and `from m import n` also as m.n', () => {
    const text = lines(
      'import os, a.b as ab',
      'from . import c',
      'from ..x.y import z as zz',
      'from pkg.mod import (one, two)',
      'from lib import *',
      'def f():',
      '    import json',
    );
    expect(grammars.imports('python', text)).toEqual([
      'os',
      'a.b',
      '.',
      '.c',
      '..x.y',
      '..x.y.z',
      'pkg.mod',
      'pkg.mod.one',
      'pkg.mod.two',
      'lib',
      'json',
    ]);
  });

  it('finds Go import specs, single and grouped', () => {
    const text = lines(
      'package main',
      'import "fmt"',
      'import (',
      '\t"os"',
      '\tutil "example.com/m/pkg/util"',
      '\t_ "example.com/m/internal/db"',
      '\t`example.com/raw`',
      ')',
    );
    expect(grammars.imports('go', text)).toEqual([
      'fmt',
      'os',
      'example.com/m/pkg/util',
      'example.com/m/internal/db',
      'example.com/raw',
    ]);
  });

  it('finds Rust mod declarations without a body and crate-local use paths up to the item list', () => {
    const text = lines(
      'mod parser;',
      'pub mod inline { }',
      'use crate::a::b::{C, D};',
      'use super::x::Y;',
      'use self::z;',
      'use std::io;',
      'use serde::Deserialize;',
      'use crate::m::*;',
      'use crate::k as kk;',
      'use crate::{p, q};',
    );
    expect(grammars.imports('rust', text)).toEqual([
      'parser',
      'crate::a::b',
      'super::x::Y',
      'self::z',
      'crate::m',
      'crate::k',
      'crate',
    ]);
  });

  it('gives [] for a file without imports', () => {
    expect(grammars.imports('typescript', 'export const x = 1;')).toEqual([]);
    expect(grammars.imports('python', 'x = 1')).toEqual([]);
  });
});

describe('stability', () => {
  const text = lines('export class A {', '  m(): void {}', '}', 'export function f(): number { return 1; }');

  it('gives the same outline for the same text twice', () => {
    const once = grammars.outline('typescript', text);
    expect(once).toBe('1: export class A\n2:   m(): void\n4: export function f(): number');
    expect(grammars.outline('typescript', text)).toBe(once);
  });

  it('does not grow memory over 2,000 outlines (trees are freed)', () => {
    // Measured: 2,000 trees of 40 such functions, never deleted, hold about 250 MB; 60 hold more.
    const big = Array.from(
      { length: 60 },
      (_, i) => `export function f${i}(a: number): number { return a + ${i}; }`,
    )
      .join('\n')
      .concat('\n');
    // Warm the wasm heap to its working size before measuring.
    for (let i = 0; i < 20; i++) grammars.outline('typescript', big);
    const before = process.memoryUsage().rss;
    let lines = 0;
    for (let i = 0; i < 2000; i++) {
      lines += grammars.outline('typescript', big).split('\n').length;
    }
    const grown = process.memoryUsage().rss - before;
    expect(lines).toBe(2000 * 60);
    expect(grown).toBeLessThan(200 * 1024 * 1024);
  });
});
