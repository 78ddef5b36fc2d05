import { errorCatalogue } from '@hearth/contract';

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
