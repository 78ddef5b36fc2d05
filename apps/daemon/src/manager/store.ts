/**
 * Definitions on disk: `<serversDir>/<id>.json`, written atomically (temp file + rename), and each server's
 * folder `<serversDir>/<id>/`. Ids are checked by the transport ({@link serverIdSchema}) before reaching here.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { serverIdSchema, type Template } from '@hearth/contract';
import type { ServerIds } from '../isolation/ids';
import { parseDefinition } from './definition';
import { UPLOADS_FOLDER } from '../uploads/tus-store';

/** A definition file as read: the definition, and the daemon's own marks (never taken from a request body). */
export interface StoredDefinition {
  definition: Template;
  adminEdited: boolean;
  /** `runAs` as found in the file, unchecked (see isolation/ids.ts storedIds). */
  runAs: unknown;
}

export class DefinitionStore {
  constructor(readonly dir: string) {}

  rootOf(id: string): string {
    return join(this.dir, id);
  }

  private fileOf(id: string): string {
    return join(this.dir, `${id}.json`);
  }

  async init(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
  }

  /**
   * `adminEdited` and `runAs` (the server's uid/gid, docs/security.md "Isolation model") are the daemon's own
   * marks, never taken from a body: see docs/daemon.md § Docker.
   */
  async write(
    id: string,
    definition: Template,
    adminEdited: boolean,
    runAs: ServerIds | null,
  ): Promise<void> {
    const file = this.fileOf(id);
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temp, JSON.stringify({ ...definition, id, adminEdited, runAs }, null, 2), {
        flag: 'wx',
        mode: 0o600,
      });
      await rename(temp, file);
    } finally {
      await rm(temp, { force: true });
    }
  }

  async read(id: string): Promise<StoredDefinition> {
    const raw = JSON.parse(await readFile(this.fileOf(id), 'utf8')) as unknown;
    const marks = raw as { adminEdited?: unknown; runAs?: unknown } | null;
    return {
      definition: parseDefinition(raw),
      adminEdited: marks?.adminEdited === true,
      runAs: marks?.runAs,
    };
  }

  async ids(): Promise<string[]> {
    const names = await readdir(this.dir);
    // `<id>.tasks.json` (src/scheduler) and other siblings are not definitions: an id holds no dot.
    const ids = names.filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -'.json'.length));
    return ids.filter((id) => serverIdSchema.safeParse(id).success);
  }

  async remove(id: string): Promise<void> {
    await rm(this.fileOf(id), { force: true });
    await rm(this.rootOf(id), { recursive: true, force: true });
    // Its unfinished resumable uploads (uploads/tus-store.ts) go with it.
    await rm(join(this.dir, UPLOADS_FOLDER, id), { recursive: true, force: true });
  }
}
