import { isObject, type JsonObject } from './json';

/** v3 calls the process environment `host`; v2 accepted `container` for docker. */
const ALIASES: Record<string, string> = { host: 'tty', container: 'docker' };

function normalizeEnvironment(env: unknown): unknown {
  if (!isObject(env) || typeof env.type !== 'string') return env;
  const type = ALIASES[env.type] ?? env.type;
  return type === env.type ? env : { ...env, type };
}

function typeOf(env: unknown): unknown {
  return isObject(env) ? env.type : undefined;
}

/** Keeps the first entry of each type: a template holds each environment type at most once. */
function dedupeByType(envs: unknown[]): { list: unknown[]; dropped: string[] } {
  const seen = new Set<unknown>();
  const dropped: string[] = [];
  const list = envs.filter((env) => {
    const type = typeOf(env);
    if (seen.has(type)) {
      dropped.push(String(type));
      return false;
    }
    seen.add(type);
    return true;
  });
  return { list, dropped };
}

/**
 * Applies the aliases, fills `supportedEnvironments` from `environment` (and the reverse), and drops repeated
 * types. Returns the types it dropped so the caller can warn.
 */
export function normalizeEnvironments(template: JsonObject): string[] {
  if ('environment' in template) template.environment = normalizeEnvironment(template.environment);
  const supported = template.supportedEnvironments;
  if (Array.isArray(supported) && supported.length > 0) {
    const { list, dropped } = dedupeByType(supported.map(normalizeEnvironment));
    template.supportedEnvironments = list;
    if (template.environment === undefined) template.environment = list[0];
    return dropped;
  }
  if (isObject(template.environment)) template.supportedEnvironments = [template.environment];
  return [];
}
