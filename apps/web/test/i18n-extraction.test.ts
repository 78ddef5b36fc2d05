import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Issue 10: no string in the web sources bypasses i18n. Every JSX text node and every user-visible
// string prop must come from `t(...)`; what is left are symbols, numbers and the technical tokens below.
const SRC = join(import.meta.dirname, '../src');

/** Props whose string value a user reads (or a screen reader speaks). */
const VISIBLE_PROPS = new Set([
  'title',
  'label',
  'placeholder',
  'aria-label',
  'alt',
  'description',
  'error',
  'message',
  'tooltip',
  'confirmLabel',
  'cancelLabel',
]);

/** Object keys whose string value ends up on screen (`error` is left out: theme colours use it). */
const VISIBLE_KEYS = new Set(['title', 'label', 'placeholder', 'description', 'message']);

/** Text that is the same in every language: product names, protocols, key names, sample values. */
const TECHNICAL = new Set([
  'Hearth',
  'SFTP',
  'JSON',
  'OAuth2',
  'Docker',
  'TTY',
  'CPU',
  'MiB',
  'MB',
  'ID',
  'Esc',
]);

/** Only punctuation, symbols, digits and whitespace: nothing to translate. */
const NO_WORDS = /^[\s\p{P}\p{S}\p{N}]*$/u;
/** A keyboard shortcut shown as a hint (`n f`, `u`): key names, the same in every language. */
const SHORTCUT = /^[a-z?](?: [a-z])?$/;
/** Elements whose text is code or key names, never prose. */
const VERBATIM_ELEMENTS = new Set(['Code', 'Kbd', 'code', 'kbd', 'pre']);

export function needsTranslation(text: string): boolean {
  const trimmed = text.replace(/\s+/g, ' ').trim();
  return !NO_WORDS.test(trimmed) && !TECHNICAL.has(trimmed) && !SHORTCUT.test(trimmed);
}

function insideVerbatim(node: ts.Node, source: ts.SourceFile): boolean {
  const element = node.parent;
  return ts.isJsxElement(element) && VERBATIM_ELEMENTS.has(element.openingElement.tagName.getText(source));
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sources(join(dir, d.name)) : /\.tsx?$/.test(d.name) ? [join(dir, d.name)] : [],
  );
}

/** The untranslated strings of one file, as `file:line "text"`. */
export function offenders(file: string, code = readFileSync(file, 'utf8')): string[] {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, kind);
  const found: string[] = [];
  const report = (node: ts.Node, text: string) => {
    if (!needsTranslation(text)) return;
    const { line } = source.getLineAndCharacterOfPosition(node.getStart());
    found.push(`${relative(SRC, file)}:${line + 1} ${JSON.stringify(text.trim())}`);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isJsxText(node)) {
      if (!insideVerbatim(node, source)) report(node, node.text);
    } else if (ts.isJsxExpression(node) && node.expression && ts.isStringLiteralLike(node.expression)) {
      // `{'text'}` as a child, or `label={'text'}` / `label={`text`}` as a prop value.
      const prop = ts.isJsxAttribute(node.parent) ? node.parent.name.getText(source) : undefined;
      if (prop === undefined || VISIBLE_PROPS.has(prop)) report(node, node.expression.text);
    } else if (ts.isJsxAttribute(node) && node.initializer && ts.isStringLiteral(node.initializer)) {
      if (VISIBLE_PROPS.has(node.name.getText(source))) report(node, node.initializer.text);
    } else if (ts.isPropertyAssignment(node) && ts.isStringLiteralLike(node.initializer)) {
      // `{ label: 'Save' }` handed to Mantine (select data, modals, notifications).
      if (VISIBLE_KEYS.has(node.name.getText(source))) report(node, node.initializer.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('i18n extraction check', () => {
  it('finds literal text, literal visible props and string children', () => {
    const sample = `const A = () => <div title="Remove" data-x="ok">Hello {'world'} {t('k')} — 3 ⇱<b aria-label={'Close'} /><Code>ls -l</Code></div>;`;
    expect(offenders(join(SRC, 'sample.tsx'), sample)).toEqual([
      'sample.tsx:1 "Remove"',
      'sample.tsx:1 "Hello"',
      'sample.tsx:1 "world"',
      'sample.tsx:1 "Close"',
    ]);
  });

  it('lets symbols, numbers and technical tokens through', () => {
    for (const text of [' — ', '⇱', '100 %', '(', 'SFTP', '…', 'n f'])
      expect(needsTranslation(text)).toBe(false);
    for (const text of ['Save', 'No files', 'x of y']) expect(needsTranslation(text)).toBe(true);
  });

  it('finds no untranslated string in apps/web/src/**/*.{ts,tsx}', () => {
    expect(sources(SRC).flatMap((file) => offenders(file))).toEqual([]);
  });
});
