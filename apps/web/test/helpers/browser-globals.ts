/**
 * The few browser globals the web app's HTTP client and session read, for unit tests in node: the page's cookie
 * jar (`document.cookie`), `localStorage`, `location`, relative URLs resolved against the page's origin (as a
 * page's fetch does) and `XMLHttpRequest` for uploads. The network underneath is node's real fetch to a real
 * server; only what a browser adds on top is supplied here.
 */
import { vi } from 'vitest';

/** `document.cookie` semantics for plain name=value cookies: a write sets or (expired) deletes one cookie. */
class CookieJar {
  private readonly cookies = new Map<string, string>();

  get cookie(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  set cookie(text: string) {
    const [pair = '', ...attributes] = text.split(';').map((part) => part.trim());
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    const expired = attributes.some((a) => /^expires=/i.test(a) && Date.parse(a.slice(8)) <= Date.now());
    if (expired) this.cookies.delete(name);
    else this.cookies.set(name, pair.slice(eq + 1));
  }
}

class MemoryStorage {
  private readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, String(value));
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
}

/**
 * The part of XMLHttpRequest the upload path uses, sending through fetch: the body is sent whole, so progress is
 * reported once, when it has gone.
 */
function xhrClass(origin: string) {
  return class {
    status = 0;
    responseText = '';
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    readonly upload: {
      onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null;
    } = { onprogress: null };
    private method = 'GET';
    private url = '';
    private readonly headers: Record<string, string> = {};

    open(method: string, url: string): void {
      this.method = method;
      this.url = new URL(url, origin).href;
    }

    setRequestHeader(name: string, value: string): void {
      this.headers[name] = value;
    }

    send(body?: BodyInit): void {
      fetch(this.url, { method: this.method, headers: this.headers, body }).then(
        async (res) => {
          this.upload.onprogress?.({ loaded: 1, total: 1, lengthComputable: true });
          this.status = res.status;
          this.responseText = await res.text();
          this.onload?.();
        },
        () => this.onerror?.(),
      );
    }
  };
}

/** Installs the globals for a page at `origin` (e.g. `http://127.0.0.1:1234`); undo with vi.unstubAllGlobals. */
export function installBrowserGlobals(origin: string): void {
  const nodeFetch = globalThis.fetch;
  vi.stubGlobal('document', new CookieJar());
  vi.stubGlobal('localStorage', new MemoryStorage());
  vi.stubGlobal('location', new URL(origin));
  vi.stubGlobal('fetch', (input: string | URL, init?: RequestInit) =>
    nodeFetch(new URL(input, origin), init),
  );
  vi.stubGlobal('XMLHttpRequest', xhrClass(origin));
}
