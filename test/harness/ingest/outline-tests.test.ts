/**
 * Test files' outlines: a JavaScript or TypeScript file's tests as entries (outline-tests.ts),
 * kept out of the declarations the relevance model reads, and the other languages' test
 * conventions, which are declarations. The expected lines are read off the sources by the
 * format of outline.ts's header, not taken from the code's output.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { BlobFacts } from '../../../src/harness/ingest/blob-facts.js';
import type { Language } from '../../../src/harness/ingest/ingest-types.js';
import { type Grammars, loadGrammars } from '../../../src/harness/ingest/outlines/outline.js';

let grammars: Grammars;
beforeAll(async () => {
  grammars = await loadGrammars();
});

const lines = (...text: string[]): string => text.join('\n');

describe('test entries: vitest and jest in TypeScript', () => {
  const source = lines(
    "import { describe, expect, it, test } from 'vitest';",
    '',
    'function helper(n: number): number {',
    '  return n;',
    '}',
    '',
    "describe('pool', () => {",
    '  const local = 1;',
    '  function inside(): void {}',
    "  it('keeps the task first', () => {",
    '    expect(helper(local)).toBe(1);',
    '  });',
    "  describe.skip('forms', () => {",
    "    it.only('ranks a full text above its outline', async () => {});",
    "    it.todo('a reference');",
    '  });',
    "  test.each([[1, 2]])('adds %i', (a, b) => {});",
    '  test.each`',
    '    a | b',
    "  `('table %s', () => {});",
    "  test.skipIf(process.env.CI)('locally', () => {});",
    "  it(/* why */ 'after a comment', function () {});",
    '});',
    '',
    "await test('at the top level', () => {});",
    'export class Fixture {',
    '  make(): void {}',
    '}',
  );

  it('lists describe, it and test calls with nested calls indented, among the declarations', () => {
    expect(grammars.outline('typescript', source)).toBe(
      lines(
        '3: function helper(n: number): number',
        "7: describe('pool')",
        "10:   it('keeps the task first')",
        "13:   describe.skip('forms')",
        "14:     it.only('ranks a full text above its outline')",
        "15:     it.todo('a reference')",
        "17:   test.each(…)('adds %i')",
        "18:   test.each`…`('table %s')",
        "21:   test.skipIf(…)('locally')",
        "22:   it('after a comment')",
        "25: test('at the top level')",
        '26: export class Fixture',
        '27:   make(): void',
      ),
    );
  });

  it('gives the declarations apart, without the entries, from the same walk', () => {
    const outlined = grammars.outlined('typescript', source);
    expect(outlined.outline).toBe(grammars.outline('typescript', source));
    expect(outlined.declarations).toBe(
      lines('3: function helper(n: number): number', '26: export class Fixture', '27:   make(): void'),
    );
  });

  it('keeps the identifiers the model reads to the declarations: no runner, no word of a title', () => {
    const facts = new BlobFacts(grammars);
    const cls = {
      language: 'typescript',
      source: true,
      test: true,
      generated: false,
      vendored: false,
    } as const;
    const learnt = facts.learn({ path: 'test/pool.test.ts', blob: 'b1', text: source, cls });
    expect(learnt.declared).toBe('\nfunction\nhelper\nn\nnumber\nexport\nclass\nFixture\nmake\nvoid\n');
    // The same declarations without a single test: the same identifiers.
    const bare = lines(
      'function helper(n: number): number {}',
      'export class Fixture {',
      '  make(): void {}',
      '}',
    );
    expect(facts.learn({ path: 'test/bare.test.ts', blob: 'b2', text: bare, cls }).declared).toBe(
      learnt.declared,
    );
  });
});

describe('test entries: mocha, jasmine and Playwright in JavaScript and TSX', () => {
  it('reads the other runners, their function callbacks and their modifiers', () => {
    const text = lines(
      "suite('store', function () {",
      "  context('when empty', function () {",
      "    specify('has no items', function () {});",
      "    xit('is skipped', function () {});",
      '  });',
      "  fdescribe('focused', () => {",
      "    fit('runs alone', () => {});",
      '  });',
      '});',
      "test.describe.parallel('pages', () => {",
      "  test('opens', async ({ page }) => {",
      "    await test.step('clicks', async () => {});",
      '  });',
      '});',
    );
    expect(grammars.outline('javascript', text)).toBe(
      lines(
        "1: suite('store')",
        "2:   context('when empty')",
        "3:     specify('has no items')",
        "4:     xit('is skipped')",
        "6:   fdescribe('focused')",
        "7:     fit('runs alone')",
        "10: test.describe.parallel('pages')",
        "11:   test('opens')",
        "12:     test.step('clicks')",
      ),
    );
  });

  it('reads TSX with JSX in the callbacks', () => {
    const text = lines(
      "describe('App', () => {",
      "  it('renders', () => {",
      '    render(<App name="x" />);',
      '  });',
      '});',
    );
    expect(grammars.outline('tsx', text)).toBe(lines("1: describe('App')", "2:   it('renders')"));
  });
});

describe('test entries: what is not a test', () => {
  it('gives no entry for a title that is not a literal, and reads the calls inside it at the same depth', () => {
    const text = lines(
      'describe(Store.name, () => {',
      "  it('opens', () => {});",
      '});',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source holds a template literal.
      'it(`counts ${n} items`, () => {});',
      "it('a' + suffix, () => {});",
      'it(title);',
      'it();',
    );
    expect(grammars.outline('typescript', text)).toBe("2: it('opens')");
  });

  it('gives no entry for a runner that is not called, called otherwise, or not a runner', () => {
    const text = lines(
      "import { test as base } from 'vitest';",
      'const test = base.extend({});',
      'test;',
      'test.only;',
      "test.extend('fixture');",
      "test.each('no table first');",
      "it.only.skip.each.todo('four modifiers');",
      "obj.it('a method');",
      "expect('x').toBe('x');",
      'it`a tagged template`;',
      "const run = it('in an expression');",
      "[1].forEach(() => it('in another callback'));",
      "if (ok) { it('in a block'); }",
      "describe('outer', () => 'not a block');",
    );
    expect(grammars.outline('typescript', text)).toBe("14: describe('outer')");
  });

  it('leaves Python, Go and Rust tests to their declarations: nothing apart from them', () => {
    const python = lines(
      'import pytest',
      '',
      '@pytest.mark.parametrize("n", [1, 2])',
      'def test_adds(n):',
      '    assert n',
      '',
      'class TestStore(unittest.TestCase):',
      '    def test_empty(self):',
      '        pass',
    );
    const go = lines(
      'package store',
      '',
      'func TestOpen(t *testing.T) {',
      '\tt.Run("sub", func(t *testing.T) {})',
      '}',
    );
    const rust = lines('#[cfg(test)]', 'mod tests {', '    #[test]', '    fn opens() {}', '}');
    const cases: [Language, string, string][] = [
      [
        'python',
        python,
        lines('4: def test_adds(n)', '7: class TestStore(unittest.TestCase)', '8:   def test_empty(self)'),
      ],
      ['go', go, '3: func TestOpen(t *testing.T)'],
      ['rust', rust, lines('2: mod tests', '4:   fn opens()')],
    ];
    for (const [language, text, expected] of cases)
      expect(grammars.outlined(language, text), language).toEqual({
        outline: expected,
        declarations: expected,
      });
  });
});

describe('test entries: titles', () => {
  it('are single-quoted on one line, escapes kept as written, blanks one space', () => {
    const text = lines(
      'it("don\'t \\"quote\\" me", f);',
      "it('caf\\u00e9 \\",
      "continued', f);",
      'it(`line one',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source holds a template literal.
      '   line two \\` \\${x}`, f);',
      "it('tab\\there\\ttoo', f);",
      `it('bidi \u202Eevil\u202C and \u0007bell', f);`,
      "it('  padded  ', f);",
      "it('', f);",
    );
    expect(grammars.outline('typescript', text)).toBe(
      lines(
        "1: it('don\\'t \"quote\" me')",
        "2: it('caf\\u00e9 continued')",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the outline shows a template's text.
        "4: it('line one line two ` ${x}')",
        "6: it('tab\\there\\ttoo')",
        "7: it('bidi evil and bell')",
        "8: it('padded')",
        "9: it('')",
      ),
    );
  });

  it('are cut at 100 characters, never within an escape or an astral character', () => {
    const hundred = 'x'.repeat(100);
    const text = lines(
      `it('${hundred}', f);`,
      `it('${hundred}y', f);`,
      `it('${'x'.repeat(99)}\\u00e9\\u00e9', f);`,
      `it('${'x'.repeat(99)}😀😀', f);`,
      `it('${'x'.repeat(99)}\\'', f);`,
    );
    expect(grammars.outline('typescript', text)).toBe(
      lines(
        `1: it('${hundred}')`,
        `2: it('${hundred}…')`,
        `3: it('${'x'.repeat(99)}\\u00e9…')`,
        `4: it('${'x'.repeat(99)}😀…')`,
        `5: it('${'x'.repeat(99)}\\'')`,
      ),
    );
  });
});

describe('test entries: hostile files stay bounded', () => {
  it('a title of a megabyte gives an entry of a hundred characters', () => {
    const text = `it('${'a '.repeat(500_000)}', f);\nit('${'\\n'.repeat(100_000)}');`;
    expect(grammars.outline('typescript', text)).toBe(
      lines(`1: it('${'a '.repeat(50).trimEnd()}…')`, `2: it('${'\\n'.repeat(100)}…')`),
    );
  });

  it('calls nested thousands deep are read twelve deep', () => {
    const depth = 3_000;
    const text = `${"describe('d', () => {\n".repeat(depth)}it('leaf', () => {});\n${'});\n'.repeat(depth)}`;
    const outline = grammars.outline('typescript', text);
    expect(outline).toBe(
      Array.from({ length: 12 }, (_, i) => `${i + 1}: ${'  '.repeat(i)}describe('d')`).join('\n'),
    );
  });

  it('non-literal titles nested thousands deep count toward the same bound', () => {
    const depth = 3_000;
    const text = `${'describe(name, () => {\n'.repeat(depth)}it('leaf', () => {});\n${'});\n'.repeat(depth)}`;
    expect(grammars.outline('typescript', text)).toBe('');
  });

  it('a template of fifty thousand substitutions gives no entry, and many tests one line each', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source holds a template literal.
    const substitutions = '${x}'.repeat(50_000);
    expect(grammars.outline('typescript', `it(\`${substitutions}\`, f);`)).toBe('');
    const many = grammars.outline('javascript', "it('t', f);\n".repeat(20_000));
    expect(many.split('\n')).toHaveLength(20_000);
    expect(many.split('\n')[19_999]).toBe("20000: it('t')");
  });
});
