/**
 * The shape budget of a parsed JSON body (docs/security.md § Request budgets). Panel and daemon check every JSON
 * body against it right after parsing, before any other code walks it: a 9 KB body nested thousands of levels
 * deep otherwise cost recursive walkers (NUL check, schema) up to a second of event loop per request, unauthenticated.
 * The walk here is iterative, touches each value once and stops at the first value beyond the budget.
 */
import { AppError } from './errors';

/** No Hearth payload nests anywhere near this deep (templates, the deepest, stay under 10 levels). */
export const BODY_MAX_DEPTH = 64;
/** Values (objects, arrays and scalars) in one body; a 1 MiB template or archive list holds far fewer. */
export const BODY_MAX_VALUES = 100_000;

export interface BodyShapeLimits {
  maxDepth: number;
  maxValues: number;
}

const defaultLimits: BodyShapeLimits = { maxDepth: BODY_MAX_DEPTH, maxValues: BODY_MAX_VALUES };

function childrenOf(value: object): unknown[] {
  return Array.isArray(value) ? value : Object.values(value);
}

/** The catalogued refusal for a body beyond the budget, or null when it fits. */
export function bodyShapeError(value: unknown, limits: BodyShapeLimits = defaultLimits): AppError | null {
  const refusal = () =>
    new AppError('ErrBodyTooComplex', { maxDepth: limits.maxDepth, maxValues: limits.maxValues });
  // Depth-first with an explicit stack: containers with the depth of their children.
  const stack: Array<{ value: object; depth: number }> = [];
  let values = 1;
  if (typeof value === 'object' && value !== null) stack.push({ value, depth: 1 });
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    if (top.depth > limits.maxDepth) return refusal();
    const children = childrenOf(top.value);
    values += children.length;
    if (values > limits.maxValues) return refusal();
    for (const child of children) {
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: top.depth + 1 });
    }
  }
  return null;
}
