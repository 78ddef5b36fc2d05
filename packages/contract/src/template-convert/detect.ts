import { asList, isObject, someString, type JsonObject } from './json';

/** The template generations PufferPanel has shipped: 1.x (`pufferd` wrapper), v2 and v3. */
export type TemplateFormat = 'v1' | 'v2' | 'v3';

const LEGACY_ROOT_DIR = '${rootdir}';

/** Any one of the 1.x traits is enough: editors mixed old and new fields for years. */
export function looksLikeV1(raw: JsonObject): boolean {
  if (isObject(raw.pufferd)) return true;
  if (isObject(raw.install) && 'commands' in raw.install) return true;
  if (isObject(raw.run) && 'program' in raw.run) return true;
  return someString(raw, (text) => text.includes(LEGACY_ROOT_DIR));
}

function usesHostEnvironment(raw: JsonObject): boolean {
  const envs = [raw.environment, ...asList(raw.supportedEnvironments)];
  return envs.some((env) => isObject(env) && env.type === 'host');
}

/** v3 renamed the process environment to `host` and allowed a list of conditional commands. */
export function looksLikeV3(raw: JsonObject): boolean {
  if (usesHostEnvironment(raw)) return true;
  return isObject(raw.run) && Array.isArray(raw.run.command);
}

export function detectFormat(raw: JsonObject): TemplateFormat {
  if (looksLikeV1(raw)) return 'v1';
  return looksLikeV3(raw) ? 'v3' : 'v2';
}
