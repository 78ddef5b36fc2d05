/**
 * When a changed variable takes effect, read from the definition itself (docs/daemon.md § Variables and
 * commands): a `${name}` in the install steps is written into files at install time, so a change needs a
 * reinstall; one in the run section or the environment is read at each start, so it needs a restart. Nothing
 * is hard-coded per template or variable name.
 */
import { z } from 'zod';
import type { Template } from './template';

export const variableEffectSchema = z.enum(['reinstall', 'restart']);
export type VariableEffect = z.infer<typeof variableEffectSchema>;

/** Whether `${name}` appears anywhere in `part` (strings at any depth, as substitution reaches them). */
function mentions(part: unknown, name: string): boolean {
  return JSON.stringify(part ?? null).includes(`\${${name}}`);
}

/** Per variable, the effects a change has, strongest first; a variable used nowhere has none. */
export function variableEffects(
  definition: Pick<Template, 'data' | 'install' | 'run' | 'environment'>,
): Record<string, VariableEffect[]> {
  const out: Record<string, VariableEffect[]> = {};
  for (const name of Object.keys(definition.data)) {
    const effects: VariableEffect[] = [];
    if (mentions(definition.install, name)) effects.push('reinstall');
    if (mentions(definition.run, name) || mentions(definition.environment, name)) effects.push('restart');
    out[name] = effects;
  }
  return out;
}
