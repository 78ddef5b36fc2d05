/**
 * The one template / server-definition format (PufferPanel v2-compatible; reference §15).
 * Used by the daemon (`<servers>/<id>.json`), the panel (templates, create payloads) and the web editor.
 * Normalisation happens at parse time: string `files`/`commands` become lists, a missing processor type is
 * `command`, legacy `program` + `arguments` become `command`, and the v3 environment `host` becomes `tty`.
 */
import { z } from 'zod';
import { backupHooksSchema } from './backup-hooks';
import { processorListSchema } from './template-processors';

export * from './template-processors';

export const variableTypes = ['string', 'boolean', 'integer', 'option'] as const;
export type VariableType = (typeof variableTypes)[number];

export const variableOptionSchema = z.object({ value: z.unknown(), display: z.string().default('') });
export type VariableOption = z.infer<typeof variableOptionSchema>;

/** A bound within the signed 32-bit range every integer variable is held to (./template-variables). */
const variableBound = z.number().int().min(-2_147_483_647).max(2_147_483_647);

export const variableSchema = z.object({
  display: z.string().default(''),
  desc: z.string().default(''),
  type: z.enum(variableTypes).default('string'),
  value: z.unknown().optional(),
  required: z.boolean().default(true),
  userEdit: z.boolean().default(true),
  internal: z.boolean().optional(),
  options: z.array(variableOptionSchema).optional(),
  /**
   * Hearth extension for `integer` variables: the smallest and largest value accepted (a port is 1–65535).
   * Values are checked by `checkVariableValue` (./template-variables, docs/daemon.md § Variables and commands).
   */
  min: variableBound.optional(),
  max: variableBound.optional(),
});
export type Variable = z.infer<typeof variableSchema>;

export const networkModes = ['bridge', 'host', 'overlay', 'macvlan', 'none'] as const;

/**
 * Container limits. Hearth names; Docker's own (`Memory`, `NanoCpus`, `CpuQuota`, `CpuShares`, `PidsLimit`, as
 * PufferPanel's raw `resources` object used them) are read too.
 */
export const dockerResourcesSchema = z.preprocess(
  normaliseResources,
  z.object({
    /** Memory limit in bytes (swap is limited to the same value, so a leak is killed, not swapped). */
    memory: z.number().int().positive().optional(),
    /** CPU quota in cores (1.5 = one and a half cores). */
    cpus: z.number().positive().optional(),
    /** Relative CPU weight against other containers (Docker default 1024). */
    cpuShares: z.number().int().positive().optional(),
    /** Maximum number of processes/threads (stops a fork bomb). */
    pidsLimit: z.number().int().positive().optional(),
  }),
);
export type DockerResources = z.infer<typeof dockerResourcesSchema>;

function normaliseResources(input: unknown): unknown {
  if (typeof input !== 'object' || input === null) return input;
  const r = input as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === 'number' && v > 0 ? v : undefined);
  const quota = num(r.CpuQuota) && num(r.CpuPeriod) ? Number(r.CpuQuota) / Number(r.CpuPeriod) : undefined;
  return {
    memory: r.memory ?? num(r.Memory),
    cpus: r.cpus ?? (num(r.NanoCpus) ? Number(r.NanoCpus) / 1e9 : quota),
    cpuShares: r.cpuShares ?? num(r.CpuShares),
    pidsLimit: r.pidsLimit ?? num(r.PidsLimit),
  };
}

const dockerEnvironmentSchema = z.object({
  type: z.literal('docker'),
  image: z.string().default('pufferpanel/generic'),
  networkMode: z.enum(networkModes).default('host'),
  networkName: z.string().optional(),
  /** Host path → container path; honoured only in definitions written by an admin (docs/daemon.md). */
  bindings: z.record(z.string(), z.string()).default({}),
  /** `host:outsidePort:insidePort/protocol`; host defaults to `{ip}` (all addresses), protocol to tcp. */
  portBindings: z.array(z.string()).default([]),
  resources: dockerResourcesSchema.optional(),
});
const standardEnvironmentSchema = z.object({ type: z.literal('standard') });
const ttyEnvironmentSchema = z.object({ type: z.literal('tty') });

/** v3 calls the PTY runner `host` and Docker may be spelled `container`; both map to Hearth's names. */
function normaliseEnvironmentType(input: unknown): unknown {
  if (typeof input !== 'object' || input === null) return input;
  const env = input as { type?: unknown };
  if (env.type === 'host') return { ...env, type: 'tty' };
  if (env.type === 'container') return { ...env, type: 'docker' };
  return input;
}

export const environmentSchema = z.preprocess(
  normaliseEnvironmentType,
  z.discriminatedUnion('type', [dockerEnvironmentSchema, standardEnvironmentSchema, ttyEnvironmentSchema]),
);
export type Environment = z.infer<typeof environmentSchema>;
export type EnvironmentType = Environment['type'];

export const runSectionSchema = z.object({
  command: z.string().default(''),
  workingDirectory: z.string().default(''),
  /** Console text written to stdin to stop the server. */
  stop: z.string().optional(),
  /** Signal number sent to stop the server; non-zero wins over `stop` (PufferPanel v2 rule). */
  stopCode: z.number().int().min(0).max(64).optional(),
  pre: processorListSchema.default([]),
  post: processorListSchema.default([]),
  environmentVars: z.record(z.string(), z.string()).default({}),
  autostart: z.boolean().default(false),
  autorestart: z.boolean().default(false),
  autorecover: z.boolean().default(false),
});
export type RunSection = z.infer<typeof runSectionSchema>;

/** Quotes an argument that holds spaces so the command-line splitter gives it back whole. */
function quoteArgument(arg: string): string {
  return /\s/.test(arg) ? `"${arg.replace(/"/g, '\\"')}"` : arg;
}

/** Legacy form: `program` + `arguments[]` joined into `command`; `stop` given as a number means a signal. */
function normaliseRun(input: unknown): unknown {
  if (typeof input !== 'object' || input === null) return input;
  const { program, arguments: args, ...rest } = input as Record<string, unknown>;
  const out: Record<string, unknown> = { ...rest };
  if (typeof program === 'string' && (out.command === undefined || out.command === '')) {
    const list = Array.isArray(args) ? args.filter((a): a is string => typeof a === 'string') : [];
    out.command = [program, ...list].map(quoteArgument).join(' ');
  }
  if (typeof out.stop === 'number') {
    out.stopCode = out.stop;
    delete out.stop;
  }
  return out;
}

/**
 * Hearth extension: how the daemon asks the running server for its players (docs/daemon.md § Player counts).
 * `type` is a game type of the gamedig library (`minecraft`, `minetest`, …); `port` is the port to ask, as a
 * variable's name (its value is used) or a number; absent = the `port` variable. Without `query` no players are
 * shown: unknown games show nothing.
 */
export const serverQuerySchema = z.strictObject({
  type: z.string().regex(/^[a-z0-9_-]{1,64}$/, 'a gamedig game type (lower case)'),
  port: z.union([z.string().min(1).max(100), z.number().int().min(1).max(65535)]).optional(),
});
export type ServerQuery = z.infer<typeof serverQuerySchema>;

export const templateSchema = z.object({
  id: z.string().optional(),
  name: z.string().optional(),
  display: z.string().default(''),
  type: z.string().default(''),
  readme: z.string().optional(),
  version: z.string().optional(),
  data: z.record(z.string(), variableSchema).default({}),
  install: processorListSchema.default([]),
  uninstall: processorListSchema.default([]),
  run: z.preprocess(normaliseRun, runSectionSchema),
  environment: environmentSchema.default({ type: 'standard' }),
  supportedEnvironments: z.array(environmentSchema).default([]),
  defaultEnv: z.string().optional(),
  requirements: z
    .object({
      os: z.string().optional(),
      arch: z.string().optional(),
      binaries: z.array(z.string()).optional(),
    })
    .optional(),
  query: serverQuerySchema.optional(),
  /**
   * Console commands around a backup of the running server (a Hearth extension; docs/backups.md § Hooks), e.g.
   * `save-off` + `save-all flush` waiting for `Saved the game`, then `save-on`. Absent: snapshot as-is.
   */
  backup: backupHooksSchema.optional(),
  /** Scheduled tasks (a later issue owns their shape); kept as given so saving never wipes them. */
  tasks: z.record(z.string(), z.unknown()).optional(),
});
export type Template = z.infer<typeof templateSchema>;
export type TemplateInput = z.input<typeof templateSchema>;

/** The stop action a definition asks for. */
export type StopSetting = { type: 'signal'; value: number } | { type: 'command'; value: string };

export function stopSettingOf(run: Pick<RunSection, 'stop' | 'stopCode'>): StopSetting {
  if (run.stopCode !== undefined && run.stopCode !== 0) return { type: 'signal', value: run.stopCode };
  return { type: 'command', value: run.stop ?? 'stop' };
}
