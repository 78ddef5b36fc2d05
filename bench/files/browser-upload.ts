/**
 * `bench:files` part `browser`: Debian's Chromium (playwright-core, never a downloaded browser) uploads a file
 * through the file manager as a user does — signed in, on the server's Files tab, the file chosen in the
 * upload picker — and the time runs from choosing it until the whole file is in the server's folder on the
 * node (its final name holds every byte). The bench runs it three times with fresh names and reports the median.
 */
import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_PATH, launchBrowser } from '../../e2e/helpers/browser';

export interface BrowserUploadTarget {
  panelUrl: string;
  serverId: string;
  serverRoot: string;
  admin: { email: string; password: string };
}

async function login(panelUrl: string, email: string, password: string) {
  const res = await fetch(`${panelUrl}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`login: HTTP ${res.status}`);
  const body = (await res.json()) as { session?: string; scopes?: string[] };
  if (!body.session) throw new Error('login: no session (two-factor on the bench account?)');
  return { session: body.session, scopes: body.scopes ?? [] };
}

const sizeOf = (path: string) => {
  try {
    return statSync(path).size;
  } catch {
    return -1;
  }
};

/**
 * Uploads `file` (`bytes` long) `runs` times under fresh names; returns each run's milliseconds. The names are
 * `browser-<n>-<basename>`: Chromium sends the picked file's own name, so the caller passes copies (hard links).
 */
export async function browserUploads(
  target: BrowserUploadTarget,
  files: string[],
  bytes: number,
): Promise<number[] | string> {
  const { existsSync } = await import('node:fs');
  if (!existsSync(CHROMIUM_PATH)) return `skipped: ${CHROMIUM_PATH} not found (apt-get install chromium)`;
  const who = await login(target.panelUrl, target.admin.email, target.admin.password);
  const browser = await launchBrowser();
  const times: number[] = [];
  try {
    for (const file of files) {
      const context = await browser.newContext({
        baseURL: target.panelUrl,
        viewport: { width: 1440, height: 900 },
      });
      await context.addCookies([
        { name: 'hearth_session', value: who.session, url: target.panelUrl, sameSite: 'Strict' },
      ]);
      await context.addInitScript(
        `localStorage.setItem('scopes', ${JSON.stringify(JSON.stringify(who.scopes))})`,
      );
      const page = await context.newPage();
      await page.goto(`/server/${target.serverId}?tab=files`);
      const picker = page.getByTestId('file-picker');
      await picker.waitFor({ state: 'attached', timeout: 60_000 }).catch(async (err: unknown) => {
        const shot = join(tmpdir(), 'hearth-bench-browser-upload.png');
        await page.screenshot({ path: shot });
        throw new Error(`the file manager's upload picker did not show (screenshot: ${shot})`, {
          cause: err,
        });
      });
      const landed = join(target.serverRoot, file.split('/').pop() ?? '');
      const started = performance.now();
      await picker.setInputFiles(file);
      while (sizeOf(landed) !== bytes) {
        if (performance.now() - started > 600_000)
          throw new Error(`browser upload of ${landed} did not finish`);
        await new Promise((r) => setTimeout(r, 10));
      }
      times.push(performance.now() - started);
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return times;
}
