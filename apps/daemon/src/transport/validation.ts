/**
 * Request validation and response serialisation of the daemon, through the zod type provider as in the panel:
 * each route validates the parts its permission-table row declares (packages/contract/src/daemon-routes.ts)
 * and answers with its row's response schema. A part that fails answers the catalogued error of its first issue
 * (the mapping the panel uses, packages/contract/src/zod-issues.ts) — or the row's refusal for that part (a bad
 * definition is ErrInvalidDefinition whatever field is wrong), so bad input keeps its documented codes
 * (docs/daemon.md, docs/errors.md).
 */
import type { FastifyInstance, FastifySchemaCompiler, FastifyServerOptions } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { daemonRouteRows, type RowSchemas } from '@hearth/contract';
import { checkPart, type Refusal } from '@hearth/contract/zod-issues';

type RowPart = keyof NonNullable<RowSchemas['refusals']>;

/** Fastify's part names → the rows' (the query string is `query` in the table). */
const rowParts: Readonly<Record<string, RowPart>> = { params: 'params', querystring: 'query', body: 'body' };

const refusals = new Map<string, RowSchemas['refusals']>(
  daemonRouteRows().map(([, row]) => [`${row.method} ${row.path}`, row.schemas.refusals]),
);

function refusalOf(method: string, url: string, httpPart: string | undefined): Refusal | undefined {
  const part = rowParts[httpPart ?? 'body'];
  return part ? refusals.get(`${method} ${url}`)?.[part] : undefined;
}

const validatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema, method, url, httpPart }) => {
  const refusal = refusalOf(method, url, httpPart);
  return (data) => checkPart(schema, data, httpPart ?? 'body', refusal);
};

/**
 * The same compilers as factories for Fastify's `schemaController` option: given at construction, they keep Fastify
 * from loading its own (Ajv and fast-json-stringify), which the daemon never uses (docs/performance.md § Start-up).
 */
export const daemonSchemaController = {
  compilersFactory: { buildValidator: () => validatorCompiler, buildSerializer: () => serializerCompiler },
  // Fastify types the factories after Ajv's and fast-json-stringify's own; these return what Fastify calls.
} as unknown as NonNullable<FastifyServerOptions['schemaController']>;

export function installValidation(app: FastifyInstance): void {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
}
