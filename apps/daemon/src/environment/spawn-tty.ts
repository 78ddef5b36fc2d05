/**
 * `tty` environment processes: a 120×40 pseudo-terminal held by the server's holder (TERM=xterm-256color,
 * ANSI passed through as is, the terminal settings node-pty would give; docs/daemon.md § Supervision).
 */
import { holderSpawner } from './holder/spawn-holder';
import type { RunSlot } from './holder/run-slot';
import type { Spawner } from './spawner';

export { TTY_COLUMNS, TTY_ROWS } from './holder/spawn-holder';

export const spawnTty = (slot: RunSlot): Spawner => holderSpawner('tty', slot);
