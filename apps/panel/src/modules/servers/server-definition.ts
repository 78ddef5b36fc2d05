/**
 * The definition a `POST /api/servers` creates (docs/api.md § Servers). Raw commands — install, run, hooks,
 * any definition field — are an administrator's power (docs/security.md): a caller who is neither admin nor
 * editServerAdmin names a stored template and sets only the values of its `userEdit` variables; the panel
 * builds the definition from the stored template. Administrators may also send a whole definition.
 */
import {
  AppError,
  checkVariableValue,
  templateSchema,
  type Environment,
  type Template,
  type Variable,
} from '@hearth/contract';
import {
  createVariableValueSchema,
  templateCreateKeys,
  type CreateServerBody,
} from '@hearth/contract/servers';
import type { StoredTemplate } from '@hearth/contract/templates-api';

/** Where stored templates come from (the templates service; 404 ErrNoTemplate when unknown). */
export interface TemplateSource {
  get(id: string): Promise<StoredTemplate>;
}

/** What the daemon receives, plus the server type for the panel's row. */
export interface BuiltDefinition {
  definition: Record<string, unknown>;
  type: string;
}

const templateKeys: ReadonlySet<string> = new Set(templateCreateKeys);

/** A key outside the template form: refused as a power the caller lacks, or as unknown to an admin. */
function refuseField(field: string, admin: boolean): never {
  throw admin ? new AppError('ErrFieldUnknown', { field }) : new AppError('ErrNoPermission', { field });
}

function checkVariables(data: Record<string, Variable>): void {
  for (const [name, variable] of Object.entries(data)) {
    const checked = checkVariableValue(variable, variable.value);
    if (!checked.ok) {
      throw new AppError('ErrVariableType', { field: name, type: variable.type, reason: checked.reason });
    }
  }
}

/** An administrator's whole definition; the daemon validates its shape, the panel its variable values too. */
function adminDefinition(body: CreateServerBody): BuiltDefinition {
  const { node: _node, users: _users, template: _template, ...definition } = body;
  const parsed = templateSchema.safeParse(definition);
  if (parsed.success) checkVariables(parsed.data.data);
  return { definition, type: body.type ?? '' };
}

/** v3 spells the PTY runner `host` and Docker `container` (as the template schema normalises). */
const canonicalType = (type: string) => (type === 'host' ? 'tty' : type === 'container' ? 'docker' : type);

/** The template's own entry for the chosen type: the caller picks an environment, never its fields. */
export function chooseEnvironment(template: Template, type: string): Environment {
  const offered =
    template.supportedEnvironments.length > 0 ? template.supportedEnvironments : [template.environment];
  const entry = offered.find((e) => e.type === canonicalType(type));
  if (!entry) {
    throw new AppError('ErrFieldInvalidOption', {
      field: 'environment.type',
      options: offered.map((e) => e.type),
    });
  }
  return entry;
}

/**
 * The template's variables with the caller's values applied. A variable with `userEdit: false` keeps the
 * template's value: a non-admin who sends one is refused (403, as `POST …/data` refuses it), not ignored.
 */
export function applyValues(
  variables: Record<string, Variable>,
  given: Record<string, unknown>,
  admin: boolean,
): Record<string, Variable> {
  const data = { ...variables };
  for (const [name, raw] of Object.entries(given)) {
    const variable = variables[name];
    const field = `data.${name}`;
    if (!variable) throw new AppError('ErrFieldUnknown', { field });
    if (!variable.userEdit && !admin) throw new AppError('ErrNoPermission', { field });
    const entry = createVariableValueSchema.safeParse(raw);
    if (!entry.success) throw new AppError('ErrFieldInvalid', { field, reason: 'expected {"value": …}' });
    data[name] = { ...variable, value: entry.data.value };
  }
  checkVariables(data);
  return data;
}

/** Refuses the first key of `body` (or of its environment) outside the template form. */
function refuseDefinitionFields(body: CreateServerBody, admin: boolean): void {
  const extra = Object.keys(body).find((key) => !templateKeys.has(key));
  if (extra !== undefined) refuseField(extra, admin);
  const envField = Object.keys(body.environment).find((key) => key !== 'type');
  if (envField !== undefined) refuseField(`environment.${envField}`, admin);
}

async function templateDefinition(
  body: CreateServerBody,
  template: string,
  admin: boolean,
  templates: TemplateSource,
): Promise<BuiltDefinition> {
  refuseDefinitionFields(body, admin);
  const { id: _id, warnings: _warnings, ...stored } = await templates.get(template);
  const environment = chooseEnvironment(stored, body.environment.type);
  const data = applyValues(stored.data, body.data ?? {}, admin);
  return { definition: { ...stored, name: body.name, environment, data }, type: stored.type };
}

/**
 * The definition for a create. `admin`: the caller is an admin or holds editServerAdmin (isDaemonAdmin).
 * Without `template`, a non-admin is refused on the first definition field sent (403 ErrNoPermission with
 * `metadata.field`), or told the template is required.
 */
export async function definitionForCreate(
  body: CreateServerBody,
  admin: boolean,
  templates: TemplateSource,
): Promise<BuiltDefinition> {
  if (body.template !== undefined) return templateDefinition(body, body.template, admin, templates);
  if (admin) return adminDefinition(body);
  refuseDefinitionFields(body, false);
  throw new AppError('ErrFieldRequired', { field: 'template' });
}
