import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundledTemplatesDir, FolderSource } from '../../src/modules/templates/sources/folder-source';
import { GitSource } from '../../src/modules/templates/sources/git-source';
import { TemplateSources } from '../../src/modules/templates/sources/template-sources';
import { TemplateRepoFixture } from './git-fixture';

const good = {
  type: 'echo',
  display: 'Echo server',
  install: [{ type: 'command', commands: 'echo installing' }],
  run: { command: 'sleep 1000', stop: 'stop' },
  environment: { type: 'tty' },
};
const legacy = {
  pufferd: {
    type: 'old',
    display: 'Old Game',
    install: { commands: [{ type: 'mkdir', target: 'saves' }] },
    run: { program: 'old-game', arguments: ['--dir', '${rootdir}'], stop: 'quit' },
    environment: { type: 'standard' },
  },
};
const javaTemplate = { ...good, display: 'Needs Java', install: [{ type: 'javadl', version: '21' }] };

function fixture(): TemplateRepoFixture {
  return new TemplateRepoFixture()
    .write('echo/echo.json', good)
    .write('echo/README.md', '# Echo\n\nSays things back.')
    .write('echo/data.json', [{ name: 'scenario' }])
    .write('old/old.json', legacy)
    .write('java/java-thing.json', javaTemplate)
    .write('broken/broken.json', '{ "type": "x", ')
    .write('bad-field/bad-field.json', { ...good, install: [{ type: 'mojangdl', version: 'latest' }] })
    .write('zz-copy/echo.json', { ...good, display: 'Second echo' })
    .write('.github/workflow.json', { not: 'a template' })
    .commit('initial');
}

function cacheDir(): string {
  return join(mkdtempSync(join(tmpdir(), 'hearth-data-')), 'template-repos');
}

describe('git template source', () => {
  let repo: TemplateRepoFixture;
  beforeAll(() => {
    repo = fixture();
  });

  it('clones into the data dir and offers good templates, with precise reasons for the others', async () => {
    const cache = cacheDir();
    const source = new GitSource(
      { name: 'community', url: repo.url, branch: repo.branch },
      { cacheDir: cache, refreshMs: 300_000 },
    );
    const scan = await new TemplateSources([source]).scan();
    expect(readdirSync(cache)).toEqual([source.dir.split('/').pop()]);
    expect(scan.sourceErrors).toEqual([]);
    expect(scan.templates.map((t) => t.name).sort()).toEqual(['echo', 'java-thing', 'old']);

    const echo = scan.templates.find((t) => t.name === 'echo');
    expect(echo?.path).toBe('echo/echo.json');
    expect(echo?.template.readme).toContain('Says things back.');
    expect(echo?.template.install[0]).toEqual({ type: 'command', commands: ['echo installing'] });

    const old = scan.templates.find((t) => t.name === 'old');
    expect(old?.template.run.command).toBe('old-game --dir ${rootDir}');
    expect(old?.warnings.map((w) => w.code)).toEqual(['convertedFromV1']);
    const java = scan.templates.find((t) => t.name === 'java-thing');
    expect(java?.warnings.find((w) => w.code === 'unknownProcessor')?.names).toEqual(['javadl']);

    const reasons = Object.fromEntries(scan.problems.map((p) => [p.path, p.reason]));
    expect(Object.keys(reasons).sort()).toEqual([
      'bad-field/bad-field.json',
      'broken/broken.json',
      'zz-copy/echo.json',
    ]);
    expect(reasons['broken/broken.json']).toMatch(/^broken\/broken.json is not valid JSON: /);
    expect(reasons['bad-field/bad-field.json']).toContain('install[0].target is required');
    expect(reasons['zz-copy/echo.json']).toBe(
      "duplicate template name 'echo', already provided by echo/echo.json",
    );
    expect(scan.problems.every((p) => p.source === 'git:community')).toBe(true);
  });

  it('fetches new commits at most once per refresh interval', async () => {
    let clock = 0;
    const options = { cacheDir: cacheDir(), refreshMs: 300_000, now: () => clock };
    const source = new GitSource({ name: 'community', url: repo.url, branch: repo.branch }, options);
    const sources = new TemplateSources([source]);
    expect(await sources.find('later')).toBeUndefined();

    repo.write('later/later.json', { ...good, display: 'Later' }).commit('add later');
    clock = 299_999;
    expect(await sources.find('later')).toBeUndefined();
    clock = 300_000;
    const later = await sources.find('LATER');
    expect(later?.ok && later.value.template.display).toBe('Later');
  });

  it('reports an unreachable repository or a bad branch without failing the other sources', async () => {
    const cache = cacheDir();
    const missing = new GitSource(
      { name: 'gone', url: `${repo.url}-missing`, branch: 'main' },
      { cacheDir: cache, refreshMs: 1 },
    );
    const badBranch = new GitSource(
      { name: 'typo', url: repo.url, branch: 'no-such-branch' },
      { cacheDir: cache, refreshMs: 1 },
    );
    const evil = new GitSource(
      { name: 'evil', url: '--upload-pack=touch /tmp/x', branch: 'main' },
      { cacheDir: cache, refreshMs: 1 },
    );
    const bundled = new FolderSource('bundled', bundledTemplatesDir);
    const scan = await new TemplateSources([missing, badBranch, evil, bundled]).scan();
    expect(scan.templates.length).toBeGreaterThanOrEqual(9);
    expect(scan.sourceErrors.map((e) => e.source)).toEqual(['git:gone', 'git:typo', 'git:evil']);
    expect(scan.sourceErrors[0]?.error).toMatch(/repository gone .*git clone failed/);
    expect(scan.sourceErrors[1]?.error).toContain('no-such-branch');
    expect(scan.sourceErrors[2]?.error).toContain('is not an http(s), git, ssh or file URL');
    expect(readdirSync(cache)).toEqual([]);
  });
});

describe('several sources', () => {
  it('lets the first source win a name and names the shadowed file', async () => {
    const repo = new TemplateRepoFixture('main')
      .write('minecraft-vanilla/minecraft-vanilla.json', good)
      .commit();
    const git = new GitSource(
      { name: 'mine', url: repo.url, branch: 'main' },
      { cacheDir: cacheDir(), refreshMs: 1 },
    );
    const sources = new TemplateSources([git, new FolderSource('bundled', bundledTemplatesDir)]);
    const scan = await sources.scan();
    expect(scan.templates.find((t) => t.name === 'minecraft-vanilla')?.source).toBe('git:mine');
    expect(scan.problems).toEqual([
      {
        source: 'bundled',
        name: 'minecraft-vanilla',
        path: 'minecraft-vanilla/minecraft-vanilla.json',
        reason:
          "template name 'minecraft-vanilla' is already provided by git:mine:minecraft-vanilla/minecraft-vanilla.json",
      },
    ]);
    const fromBundled = await sources.find('minecraft-vanilla', 'bundled');
    expect(fromBundled?.ok && fromBundled.value.template.display).toContain('vanilla');
  });

  it('reports a missing local folder as a source error', async () => {
    const scan = await new TemplateSources([
      new FolderSource('local', '/nonexistent/hearth-templates'),
    ]).scan();
    expect(scan.sourceErrors[0]?.error).toContain('/nonexistent/hearth-templates');
  });
});
