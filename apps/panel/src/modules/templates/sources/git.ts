import { execFile } from 'node:child_process';

export const GIT_TIMEOUT_MS = 120_000;

/** Runs the `git` CLI without a shell; never prompts (a private repo without credentials fails instead). */
export function runGit(args: readonly string[], cwd?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      args,
      {
        cwd,
        timeout: GIT_TIMEOUT_MS,
        maxBuffer: 4 * 1024 * 1024,
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: 'true', LC_ALL: 'C' },
      },
      (err, stdout, stderr) => {
        if (!err) return resolve(stdout);
        const detail = stderr.trim().split('\n').filter(Boolean).pop() ?? err.message;
        reject(new Error(`git ${args[0] ?? ''} failed: ${detail}`, { cause: err }));
      },
    );
  });
}

const URL_PATTERN = /^(https?|git|ssh|file):\/\/[^\s]+$/;
const BRANCH_PATTERN = /^(?!-)(?!.*\.\.)[A-Za-z0-9._/-]+$/;

/** Both go onto git's command line: refuse anything that could read as an option or a local path trick. */
export function checkRepository(url: string, branch: string): string | undefined {
  if (!URL_PATTERN.test(url)) return `'${url}' is not an http(s), git, ssh or file URL`;
  if (!BRANCH_PATTERN.test(branch)) return `'${branch}' is not a valid branch name`;
  return undefined;
}
