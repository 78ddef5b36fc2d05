/**
 * The console's text, as lines: output arrives in chunks that split lines anywhere, so
 * the unfinished tail is kept apart until its newline comes. Each line costs twice its length (UTF-16 bytes);
 * over CONSOLE_BUFFER_LIMIT the oldest lines go until CONSOLE_BUFFER_TRIM_TO remain.
 */
import { DAEMON_LINE_PREFIX } from '@hearth/contract';

export const CONSOLE_BUFFER_LIMIT = 4_194_304;
export const CONSOLE_BUFFER_TRIM_TO = 2_097_152;

export const lineUnits = (line: string): number => line.length * 2;

/** Drops the oldest lines while the total exceeds `target`; returns how many went. */
export function trimLines(
  lines: string[],
  units: number,
  target: number,
): { dropped: number; units: number } {
  let dropped = 0;
  while (units > target && dropped < lines.length) {
    units -= lineUnits(lines[dropped] ?? '');
    dropped++;
  }
  return { dropped, units };
}

/** A carriage return without a newline redraws the line (progress bars): keep what was drawn last. */
export function redrawn(line: string): string {
  const cr = line.lastIndexOf('\r', line.length - 2);
  return cr === -1 ? line.replace(/\r$/, '') : line.slice(cr + 1).replace(/\r$/, '');
}

export function isDaemonLine(line: string): boolean {
  return line.startsWith(DAEMON_LINE_PREFIX);
}

export class ConsoleBuffer {
  private linesValue: string[] = [];
  private partial = '';
  private unitsValue = 0;
  /** Bumped on every change, so a view can tell cheaply whether to redraw. */
  version = 0;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly limit = CONSOLE_BUFFER_LIMIT,
    private readonly trimTo = CONSOLE_BUFFER_TRIM_TO,
  ) {}

  get units(): number {
    return this.unitsValue + lineUnits(this.partial);
  }

  /** Complete lines plus the unfinished one (a prompt, for instance) when there is one. */
  lines(): string[] {
    return this.partial === '' ? this.linesValue.slice() : [...this.linesValue, redrawn(this.partial)];
  }

  append(text: string): void {
    if (text === '') return;
    const parts = (this.partial + text).split('\n');
    this.partial = parts.pop() ?? '';
    for (const part of parts) {
      const line = redrawn(part);
      this.linesValue.push(line);
      this.unitsValue += lineUnits(line);
    }
    if (this.units > this.limit) {
      const { dropped, units } = trimLines(
        this.linesValue,
        this.unitsValue,
        this.trimTo - lineUnits(this.partial),
      );
      this.linesValue = this.linesValue.slice(dropped);
      this.unitsValue = units;
    }
    this.changed();
  }

  clear(): void {
    this.linesValue = [];
    this.partial = '';
    this.unitsValue = 0;
    this.changed();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    this.version++;
    for (const listener of this.listeners) listener();
  }
}
