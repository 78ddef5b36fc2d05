/**
 * The import list's state (imported, current, newer, differs, edited since) and the overwrite guard of a single
 * import, on every database dialect, against real template folders on disk.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@hearth/contract';
import type { ImportableTemplate } from '@hearth/contract/templates-api';
import { connectDatabase, migrateToLatest, type Db } from '../../src/db';
import { compareVersions, definitionHash } from '../../src/modules/templates/import-state';
import { FolderSource } from '../../src/modules/templates/sources/folder-source';
import { TemplateSources } from '../../src/modules/templates/sources/template-sources';
import { TemplatesRepository } from '../../src/modules/templates/templates.repository';
import { TemplatesService } from '../../src/modules/templates/templates.service';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { DIALECTS } from '../helpers/dialects';

const game = (display: string, extra: Record<string, unknown> = {}) => ({
  type: 'echo',
  display,
  run: { command: 'sleep 1000', stop: 'stop' },
  environment: { type: 'standard' },
  ...extra,
});

/** A PufferPanel-layout folder whose templates the test rewrites as a maintainer would. */
function folder(): { root: string; write: (name: string, template: object) => void } {
  const root = mkdtempSync(join(tmpdir(), 'hearth-import-state-'));
  return {
    root,
    write: (name, template) => {
      mkdirSync(join(root, name), { recursive: true });
      writeFileSync(join(root, name, `${name}.json`), JSON.stringify(template, null, 2));
    },
  };
}

const codeOf = (err: unknown) => (err instanceof AppError ? err.code : err);

describe('version order and definition hash', () => {
  it('compares versions part by part, numbers as numbers', () => {
    expect(compareVersions('1.10', '1.9')).toBeGreaterThan(0);
    expect(compareVersions('2.0', '2.0.1')).toBeLessThan(0);
    expect(compareVersions('v3', '3.0')).toBe(0);
    expect(compareVersions('1.0-beta2', '1.0-beta10')).toBeLessThan(0);
  });

  it('hashes a definition the same whatever its key order, and differently when a value changes', () => {
    const a = definitionHash('{"type":"x","run":{"command":"a","stop":"s"}}');
    expect(definitionHash('{"run":{"stop":"s","command":"a"},"type":"x"}')).toBe(a);
    expect(definitionHash('{"type":"x","run":{"command":"b","stop":"s"}}')).not.toBe(a);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe.each(DIALECTS)('import state and the overwrite guard on %s', (dialect) => {
  let testDb: TestDatabase;
  let db: Db;
  let service: TemplatesService;
  let clock = 1_000;
  const local = folder();
  const other = folder();

  const stateOf = async (name: string): Promise<ImportableTemplate | undefined> =>
    (await service.importable()).templates.find((t) => t.name === name);

  beforeAll(async () => {
    testDb = await createTestDatabase(dialect);
    db = connectDatabase(testDb.url);
    await migrateToLatest(db.kysely);
    const sources = new TemplateSources([
      new FolderSource('local', local.root),
      new FolderSource('other', other.root),
    ]);
    service = new TemplatesService(new TemplatesRepository(db), sources, () => clock);
  });
  afterAll(async () => {
    await db?.close();
    await testDb?.drop();
  });

  it('marks a template new, then imported and current after a guarded import', async () => {
    local.write('alpha', game('Alpha'));
    expect(await stateOf('alpha')).toMatchObject({ state: 'new', source: 'local' });
    expect((await stateOf('alpha'))?.imported).toBeUndefined();
    await service.import('alpha', undefined, false);
    expect(await stateOf('alpha')).toMatchObject({
      state: 'current',
      imported: { source: 'local', at: 1_000, editedSince: false },
    });
  });

  it('marks a source changed since the import as newer; a guarded import refuses, a plain one overwrites', async () => {
    local.write('alpha', game('Alpha 2'));
    expect((await stateOf('alpha'))?.state).toBe('newer');
    const refused = await service.import('alpha', undefined, false).catch((e: unknown) => e);
    expect(codeOf(refused)).toBe('ErrDuplicateTemplateName');
    expect((refused as AppError).status).toBe(409);
    expect((refused as AppError).metadata).toEqual({ name: 'alpha' });
    expect((await service.get('alpha')).display).toBe('Alpha');
    expect((await stateOf('alpha'))?.state).toBe('newer');

    clock = 2_000;
    expect((await service.import('alpha')).display).toBe('Alpha 2');
    expect(await stateOf('alpha')).toMatchObject({ state: 'current', imported: { at: 2_000 } });
  });

  it('says when the stored template was edited since its import, and not for a save with reordered keys', async () => {
    const stored = await service.get('alpha');
    const { id: _id, warnings: _w, ...definition } = stored;
    const reordered = Object.fromEntries(Object.entries(definition).reverse());
    await service.save('alpha', reordered);
    expect(await stateOf('alpha')).toMatchObject({ state: 'current', imported: { editedSince: false } });
    await service.save('alpha', { ...definition, display: 'Alpha, mine' });
    expect(await stateOf('alpha')).toMatchObject({ state: 'current', imported: { editedSince: true } });
    await service.import('alpha');
    expect((await stateOf('alpha'))?.imported?.editedSince).toBe(false);
  });

  it('decides by the version field when both sides carry one', async () => {
    local.write('versioned', game('Versioned', { version: '1.9' }));
    await service.import('versioned');
    expect(await stateOf('versioned')).toMatchObject({
      state: 'current',
      version: '1.9',
      imported: { version: '1.9' },
    });
    local.write('versioned', game('Versioned, same version', { version: '1.9' }));
    expect((await stateOf('versioned'))?.state).toBe('current');
    local.write('versioned', game('Versioned', { version: '1.10' }));
    expect(await stateOf('versioned')).toMatchObject({ state: 'newer', version: '1.10' });
    local.write('versioned', game('Versioned', { version: '1.2' }));
    expect((await stateOf('versioned'))?.state).toBe('differs');
  });

  it('compares contents for a template saved by hand or imported from another source', async () => {
    other.write('beta', game('Beta'));
    await service.save('beta', game('Beta'));
    expect(await stateOf('beta')).toMatchObject({ state: 'current', source: 'other' });
    expect((await stateOf('beta'))?.imported).toBeUndefined();
    await service.save('beta', game('Beta, by hand'));
    expect((await stateOf('beta'))?.state).toBe('differs');

    await service.import('beta', 'other');
    local.write('beta', game('Beta from local'));
    // `local` comes first now: the record of the import from `other` does not judge it.
    expect(await stateOf('beta')).toMatchObject({
      state: 'differs',
      source: 'local',
      imported: { source: 'other' },
    });
  });

  it('forgets the import record with the template: deleted, it is new again', async () => {
    await service.delete('alpha');
    expect(await stateOf('alpha')).toMatchObject({ state: 'new' });
    await service.save('alpha', game('Alpha 2'));
    const state = await stateOf('alpha');
    expect(state?.state).toBe('current');
    expect(state?.imported).toBeUndefined();
  });

  it('lets exactly one of two concurrent guarded imports store the template', async () => {
    local.write('gamma', game('Gamma'));
    const results = await Promise.allSettled([
      service.import('gamma', undefined, false),
      service.import('gamma', undefined, false),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r) => r.status === 'rejected');
    expect(codeOf(rejected?.reason)).toBe('ErrDuplicateTemplateName');
    expect((await stateOf('gamma'))?.state).toBe('current');
  });
});
