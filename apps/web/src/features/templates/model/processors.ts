import { isKnownProcessorType, type Processor } from '@hearth/contract';

/** Changing a processor's type clears its other fields: a new type starts blank. */
export function changeProcessorType(_step: Processor, type: string): Processor {
  return { type };
}

/** The default processor type is `command`. */
export function newProcessor(): Processor {
  return { type: 'command', commands: [] };
}

/** Processor types in the template that Hearth does not run yet, named once each (install, hooks, uninstall). */
export function unknownProcessorNames(template: {
  install: readonly Processor[];
  uninstall?: readonly Processor[];
  run: { pre: readonly Processor[]; post: readonly Processor[] };
}): string[] {
  const steps = [
    ...template.install,
    ...(template.uninstall ?? []),
    ...template.run.pre,
    ...template.run.post,
  ];
  return [...new Set(steps.filter((s) => !isKnownProcessorType(s.type)).map((s) => s.type))];
}
