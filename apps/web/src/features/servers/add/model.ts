import type { StoredTemplate } from '@hearth/contract/templates-api';
import type { ServerVariable } from '../api';
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

/** The variables shown when creating: everything but internal ones. */
export function creationVariables(template: StoredTemplate): Record<string, ServerVariable> {
  return Object.fromEntries(
    Object.entries(template.data as Record<string, ServerVariable & { internal?: boolean }>).filter(
      ([, v]) => !v.internal,
    ),
  );
}

export interface CreateChoice {
  template: StoredTemplate;
  name: string;
  node: string;
  environment: EnvEntry;
  values: Record<string, VariableValue>;
  users: string[];
}

/** `POST /api/servers` (PufferPanel v2 shape): the template with name, node, users, environment and values. */
export function createBody(choice: CreateChoice): Record<string, unknown> {
  const { id: _id, warnings: _warnings, ...template } = choice.template;
  const data = template.data as Record<string, ServerVariable>;
  const values = wireValues(creationVariables(choice.template), choice.values);
  const merged = Object.fromEntries(
    Object.entries(data).map(([name, v]) => [name, name in values ? { ...v, value: values[name] } : v]),
  );
  return {
    ...template,
    name: choice.name.trim(),
    node: choice.node,
    users: choice.users,
    environment: choice.environment,
    data: merged,
  };
}
