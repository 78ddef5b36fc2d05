/**
 * Where a server's holders keep their record, and whether the next run is the main process or a one-off
 * (install `command` step). Shared by the environment (which sets the role before each spawn; one run at a
 * time) and its holder spawner, so spec-rewriting decorators between them (isolation) need not carry it.
 */
import type { RunRole } from './run-dir';

export class RunSlot {
  role: RunRole = 'main';

  /** `dir`: the server's run directory, `<dataDir>/run/<serverId>`. */
  constructor(readonly dir: string) {}
}
