import { errorCatalogue } from '@hearth/contract';
import { daemonMessageTerms, daemonMessages } from '@hearth/contract/daemon-messages';

/**
 * The error catalogue writes placeholders as `{name}`; i18next uses `{{name}}`. This is the one
 * conversion between the two.
 */
export function toI18nextPlaceholders(message: string): string {
  return message.replace(/\{(\w+)\}/g, '{{$1}}');
}

/**
 * The English `errors.*` strings, generated from the catalogue (the single English source), so a code
 * added to the catalogue is translatable at once. Other locales carry their own `errors` section.
 */
export function catalogueStrings(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(errorCatalogue).map(([code, { message }]) => [code, toI18nextPlaceholders(message)]),
  );
}

type Tree = { [key: string]: string | Tree };

/** Puts `value` at the dotted `path` of `tree` (`task.running` → `{task: {running}}`). */
function place(tree: Tree, path: string, value: string): void {
  const parts = path.split('.');
  let node = tree;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    node = typeof next === 'object' ? next : (node[part] = {});
  }
  node[parts[parts.length - 1] ?? ''] = value;
}

/**
 * The English `daemonMessages.*` strings (console lines the daemon writes by code, issue 16 item 13), generated
 * from the contract like the errors: each code's wording, and `terms.<param>.<id>` for the ids some parameters
 * carry. Other locales carry their own `daemonMessages` section.
 */
export function daemonMessageStrings(): Tree {
  const tree: Tree = {};
  for (const [code, wording] of Object.entries(daemonMessages))
    place(tree, code, toI18nextPlaceholders(wording));
  for (const [param, words] of Object.entries(daemonMessageTerms)) {
    for (const [id, word] of Object.entries(words)) place(tree, `terms.${param}.${id}`, word);
  }
  return tree;
}
