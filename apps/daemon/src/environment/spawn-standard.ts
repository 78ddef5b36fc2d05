/**
 * `standard` environment processes: stdin and stdout+stderr are pipes held by the server's holder, in the
 * process's own session (docs/daemon.md § Supervision).
 */
import { holderSpawner } from './holder/spawn-holder';
import type { RunSlot } from './holder/run-slot';
import type { Spawner } from './spawner';

export const spawnStandard = (slot: RunSlot): Spawner => holderSpawner('pipe', slot);
