import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const IDENTITY = [
  '-c',
  'user.name=Hearth Test',
  '-c',
  'user.email=test@hearth.invalid',
  '-c',
  'commit.gpgsign=false',
];

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', [...IDENTITY, ...args], { cwd, stdio: 'pipe' });
}

/** A real bare repository on disk plus a work tree to commit into; `url` is a file:// URL to the bare one. */
export class TemplateRepoFixture {
  readonly root = mkdtempSync(join(tmpdir(), 'hearth-template-repo-'));
  readonly work = join(this.root, 'work');
  readonly bare = join(this.root, 'templates.git');
  readonly url = pathToFileURL(this.bare).href;

  constructor(readonly branch = 'v2.6') {
    mkdirSync(this.work);
    git(this.root, 'init', '--quiet', '--bare', '--initial-branch', branch, this.bare);
    git(this.work, 'init', '--quiet', '--initial-branch', branch);
    git(this.work, 'remote', 'add', 'origin', this.bare);
  }

  write(path: string, content: string | object): this {
    const file = join(this.work, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
    return this;
  }

  commit(message = 'update'): this {
    git(this.work, 'add', '--all');
    git(this.work, 'commit', '--quiet', '-m', message);
    git(this.work, 'push', '--quiet', 'origin', this.branch);
    return this;
  }
}
