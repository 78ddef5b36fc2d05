/** Console patterns (docs/alerts.md § Console patterns): one implementation, in the contract, for node and panel. */
export { globMatch, lineMatches } from '@hearth/contract';
