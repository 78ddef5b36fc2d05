import { isObject, mapStrings, slugify, type JsonObject } from './json';

/** Unwraps `{ "pufferd": {...} }`; keys beside the wrapper (a name, say) survive unless the wrapper repeats them. */
function unwrap(raw: JsonObject): JsonObject {
  if (!isObject(raw.pufferd)) return raw;
  const { pufferd, ...rest } = raw;
  return { ...rest, ...pufferd };
}

/** 1.x kept processor lists under `commands`: `install: { commands: [...] }`. */
function flattenSteps(value: unknown): unknown {
  if (isObject(value) && 'commands' in value) return value.commands;
  return value;
}

/**
 * Brings a 1.x template to the v2 shape. Idempotent: a converted template passes through unchanged,
 * so the editor may offer conversion on anything that merely looks old.
 */
export function convertV1(raw: JsonObject): JsonObject {
  const out = mapStrings(unwrap(raw), (text) => text.replaceAll('${rootdir}', '${rootDir}')) as JsonObject;
  if ('install' in out) out.install = flattenSteps(out.install);
  if ('uninstall' in out) out.uninstall = flattenSteps(out.uninstall);
  if (out.supportedEnvironments === undefined && isObject(out.environment)) {
    out.supportedEnvironments = [out.environment];
  }
  if (typeof out.name !== 'string' || out.name === '') {
    const display = typeof out.display === 'string' ? out.display : '';
    const slug = slugify(display);
    if (slug !== '') out.name = slug;
  }
  return out;
}
