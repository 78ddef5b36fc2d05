import type { CreateServerBody } from '@hearth/contract/servers';
import type { StoredTemplate } from '@hearth/contract/templates-api';
import type { Variable } from '@hearth/contract';
import { wireValues, type VariableValue } from '../variables/values';

export type EnvEntry = { type: string } & Record<string, unknown>;

/** The environments a template offers; an old template without the list offers its default one. */
export function templateEnvironments(template: StoredTemplate): EnvEntry[] {
  const list = template.supportedEnvironments as EnvEntry[];
  return list.length > 0 ? list : [template.environment];
}

/**
 * The environments to choose from on this node: docker only where the node reports docker. When the node's
 * features are not known (no answer), nothing is filtered and the daemon decides.
 */
export function environmentsOnNode(
  template: StoredTemplate,
  nodeEnvironments?: readonly string[],
): EnvEntry[] {
  const all = templateEnvironments(template);
  return nodeEnvironments ? all.filter((e) => nodeEnvironments.includes(e.type)) : all;
}

/**
 * The variables shown when creating: everything but internal ones, and for a caller who is not a definition
 * admin only `userEdit` ones (the panel refuses the others: docs/api.md § Servers).
 */
export function creationVariables(template: StoredTemplate, canSetLocked: boolean): Record<string, Variable> {
  return Object.fromEntries(
    Object.entries(template.data).filter(([, v]) => !v.internal && (canSetLocked || v.userEdit)),
  );
}

export interface CreateChoice {
  template: StoredTemplate;
  name: string;
  node: string;
  environment: EnvEntry;
  values: Record<string, VariableValue>;
  users: string[];
  /** The caller may set `userEdit: false` variables (admin or editServerAdmin). */
  canSetLocked: boolean;
}

/**
 * `POST /api/servers` in its template form, for everyone: the stored template's id, the environment by type
 * and `{value}` for each variable shown. The panel builds the definition from the stored template, so no
 * command or other definition field travels from the browser.
 */
export function createBody(choice: CreateChoice): CreateServerBody {
  const values = wireValues(creationVariables(choice.template, choice.canSetLocked), choice.values);
  return {
    template: choice.template.id,
    name: choice.name.trim(),
    node: choice.node,
    users: choice.users,
    environment: { type: choice.environment.type },
    data: Object.fromEntries(Object.entries(values).map(([name, value]) => [name, { value }])),
  };
}
