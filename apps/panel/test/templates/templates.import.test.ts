import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@hearth/contract';
import { connectDatabase, migrateToLatest, type Db } from '../../src/db';
import { GitSource } from '../../src/modules/templates/sources/git-source';
import { TemplateSources } from '../../src/modules/templates/sources/template-sources';
import { TemplatesRepository } from '../../src/modules/templates/templates.repository';
import { TemplatesService } from '../../src/modules/templates/templates.service';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { DIALECTS } from '../helpers/dialects';
import { corpusSamples } from './corpus';
import { TemplateRepoFixture } from './git-fixture';

/** A PufferPanel-layout repository holding every corpus sample plus broken and duplicate entries. */
function pufferpanelLikeRepo(): TemplateRepoFixture {
  const repo = new TemplateRepoFixture('v2.6');
  for (const s of corpusSamples())
    repo.write(`${s.generation}-${s.name}/${s.name}-${s.generation}.json`, s.text);
  return repo
    .write('broken/broken.json', '{"type": "x", "run": ')
    .write('wrong/wrong.json', { type: 'x', run: { command: 'a' }, environment: { type: 'vm' } })
    .write('zz-dup/factorio-v1.json', { type: 'dup', run: { command: 'b' } })
    .commit();
}

describe.each(DIALECTS)('importing a PufferPanel-layout git repository on %s', (dialect) => {
  let testDb: TestDatabase;
  let db: Db;
  let service: TemplatesService;
  let clock = 1_000;
  const repo = pufferpanelLikeRepo();

  beforeAll(async () => {
    testDb = await createTestDatabase(dialect);
    db = connectDatabase(testDb.url);
    await migrateToLatest(db.kysely);
    const cacheDir = join(mkdtempSync(join(tmpdir(), 'hearth-data-')), 'template-repos');
    const git = new GitSource(
      { name: 'community', url: repo.url, branch: repo.branch },
      { cacheDir, refreshMs: 1 },
    );
    service = new TemplatesService(new TemplatesRepository(db), new TemplateSources([git]), () => clock);
  });
  afterAll(async () => {
    await db?.close();
    await testDb?.drop();
  });

  it('imports every good template and fails each bad one with its reason', async () => {
    const outcomes = await service.importAll();
    const failed = Object.fromEntries(outcomes.flatMap((o) => (o.ok ? [] : [[o.name, o.reason]])));
    expect(Object.keys(failed).sort()).toEqual(['broken', 'factorio-v1', 'wrong']);
    expect(failed.broken).toMatch(/^broken\/broken.json is not valid JSON/);
    expect(failed.wrong).toContain('environment');
    expect(failed['factorio-v1']).toContain('already provided by v1-factorio/factorio-v1.json');

    const stored = (await service.list()).map((s) => s.id);
    expect(stored).toEqual(
      corpusSamples()
        .map((s) => `${s.name}-${s.generation}`)
        .sort(),
    );
    const vanilla = await service.get('minecraft-vanilla-v2.6');
    expect(vanilla.install[0]).toEqual({ type: 'javadl', version: '${javaversion}' });
    expect(vanilla.warnings.find((w) => w.code === 'unknownProcessor')?.names).toEqual(['javadl']);
    expect((await service.get('factorio-v1')).display).toBe('Factorio');
  });

  it('re-imports over the stored template, keeping its creation time', async () => {
    clock = 2_000;
    repo
      .write('v1-factorio/factorio-v1.json', { type: 'factorio', display: 'Renamed', run: { command: 'x' } })
      .commit();
    const result = await service.import('factorio-v1');
    expect(result).toMatchObject({
      id: 'factorio-v1',
      display: 'Renamed',
      source: 'git:community',
      warnings: [],
    });
    const rows = await db.kysely
      .selectFrom('templates')
      .selectAll()
      .where('id', '=', 'factorio-v1')
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ created_at: 1_000, updated_at: 2_000, display: 'Renamed' });
  });

  it('writes nothing for a broken file and leaves a stored template untouched', async () => {
    await service.save('broken', { type: 'keep', display: 'Kept', run: { command: 'k' } });
    const err = await service.import('broken').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('ErrInvalidDefinition');
    expect((err as AppError).message).toContain('broken/broken.json is not valid JSON');
    expect((await service.get('broken')).display).toBe('Kept');
  });
});
