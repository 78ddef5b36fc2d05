import { describe, expect, it } from 'vitest';
import { landingPathFor, navEntries, routes, visibleNavEntries } from '../src/app/routes';
import enUS from '../src/i18n/locales/en_US.json';

const specRoutes = [
  '/server',
  '/addserver',
  '/account',
  '/server/:id',
  '/user/:id',
  '/adduser',
  '/user',
  '/template/:id',
  '/addtemplate',
  '/template',
  '/node',
  '/node/:id',
  '/addnode',
  '/settings',
  '/activity',
  '/alerts',
  '/errors/404',
  '/auth/login',
  '/auth/register',
  '/auth/invite',
];

function lookup(key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], enUS);
}

describe('route table', () => {
  it('holds every route of the table exactly once', () => {
    const paths = routes.map((r) => r.path);
    for (const path of specRoutes) expect(paths.filter((p) => p === path)).toHaveLength(1);
  });

  it('flags exactly the routes that need no session', () => {
    const publicPaths = routes
      .filter((r) => r.public)
      .map((r) => r.path)
      .sort();
    expect(publicPaths).toEqual([
      '/auth/invite',
      '/auth/login',
      '/auth/register',
      '/auth/reset',
      '/auth/setup',
      '/errors/404',
    ]);
  });

  it('gives every route and sidebar entry an English title', () => {
    for (const route of routes) expect(typeof lookup(route.titleKey), route.titleKey).toBe('string');
    for (const entry of navEntries) expect(typeof lookup(entry.labelKey), entry.labelKey).toBe('string');
  });

  it('points every sidebar entry at a route of the table', () => {
    for (const entry of navEntries) expect(routes.some((r) => r.path === entry.to)).toBe(true);
  });

  it('binds the eight g shortcuts', () => {
    expect(navEntries.map((e) => e.shortcut).sort()).toEqual([
      'g a',
      'g c',
      'g l',
      'g n',
      'g s',
      'g t',
      'g u',
      'g y',
    ]);
  });
});

describe('sidebar visibility by scopes', () => {
  const visible = (scopes: string[], hasServers = false) =>
    visibleNavEntries({ scopes, hasServers }).map((e) => e.to);

  it('shows only Account without scopes', () => {
    expect(visible([])).toEqual(['/account']);
  });

  it('shows each section for its view scope', () => {
    expect(visible(['servers.view'])).toEqual(['/account', '/server']);
    expect(visible(['nodes.view'])).toEqual(['/account', '/node']);
    expect(visible(['users.view'])).toEqual(['/account', '/user']);
    expect(visible(['templates.view'])).toEqual(['/account', '/template']);
  });

  it('shows Settings only to admins, and everything to them', () => {
    expect(visible(['panel.settings', 'users.edit'])).not.toContain('/settings');
    expect(visible(['servers.admin'])).toEqual([
      '/account',
      '/server',
      '/node',
      '/user',
      '/template',
      '/settings',
      '/activity',
      '/alerts',
    ]);
  });

  it('lands on Servers with servers.view or admin, else Account', () => {
    expect(landingPathFor({ scopes: ['servers.view'], hasServers: false })).toBe('/server');
    expect(landingPathFor({ scopes: ['servers.admin'], hasServers: false })).toBe('/server');
    expect(landingPathFor({ scopes: ['nodes.view'], hasServers: false })).toBe('/account');
  });

  it('shows Servers and lands there for a user with permissions on a server but no panel flag', () => {
    expect(visible([], true)).toEqual(['/account', '/server']);
    expect(landingPathFor({ scopes: [], hasServers: true })).toBe('/server');
  });
});

describe('route guards from the table (docs/permissions.md § Web guards)', () => {
  const allowed = (path: string, scopes: string[], hasServers = false) =>
    routes.find((r) => r.path === path)?.allowed({ scopes, hasServers });

  it('refuses admin pages to a user without the flag, and opens them with it', () => {
    const cases: [string, string][] = [
      ['/settings', 'panel.settings'],
      ['/adduser', 'users.edit'],
      ['/user', 'users.view'],
      ['/addtemplate', 'templates.edit'],
      ['/template/:id', 'templates.view'],
      ['/node/:id', 'nodes.view'],
      ['/addnode', 'nodes.edit'],
      ['/addserver', 'servers.create'],
    ];
    for (const [path, scope] of cases) {
      // A limited user (servers.view and view-only templates) is refused everything but their own flag.
      const limited = ['servers.view', 'templates.view'].filter((s) => s !== scope);
      expect(allowed(path, limited), path).toBe(false);
      expect(allowed(path, [scope]), path).toBe(true);
      expect(allowed(path, ['servers.admin']), path).toBe(true);
    }
  });

  it('opens Alerts to administrators only, not to a server user holding manageServerAlerts', () => {
    expect(allowed('/alerts', ['servers.view', 'panel.settings'], true)).toBe(false);
    expect(allowed('/alerts', ['servers.admin'])).toBe(true);
  });

  it('opens the server list to owners of a server, and Account and a server page to anyone', () => {
    expect(allowed('/server', [])).toBe(false);
    expect(allowed('/server', [], true)).toBe(true);
    expect(allowed('/account', [])).toBe(true);
    expect(allowed('/server/:id', [])).toBe(true);
  });
});
