/**
 * `docker compose` is not installed here, so compose.yaml is not run (docs/operations.md § Container says so);
 * this suite parses it and holds it to the Dockerfile it builds: the same base-image argument, the volume at the
 * image's data folder, the ports the image exposes, PostgreSQL only under its profile, no Docker socket by default.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = resolve(import.meta.dirname, '../..');

interface Service {
  build?: { context: string; args?: Record<string, string> };
  profiles?: string[];
  ports?: string[];
  volumes?: string[];
  environment?: Record<string, string>;
}

describe('compose.yaml', () => {
  const compose = parse(readFileSync(join(ROOT, 'compose.yaml'), 'utf8')) as {
    services: Record<string, Service>;
    volumes: Record<string, unknown>;
  };
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  const hearth = compose.services.hearth ?? {};

  it('builds the Dockerfile with its base-image argument and keeps data in a named volume', () => {
    expect(hearth.build?.context).toBe('.');
    const arg = /^ARG BASE_IMAGE=(\S+)$/m.exec(dockerfile)?.[1];
    expect(hearth.build?.args?.BASE_IMAGE).toBe(arg);
    expect(dockerfile).toMatch(/^VOLUME \/var\/lib\/hearth$/m);
    expect(hearth.volumes).toEqual(['hearth-data:/var/lib/hearth']);
    expect(Object.keys(compose.volumes)).toContain('hearth-data');
  });

  it('publishes exactly the ports the image exposes', () => {
    const exposed = (/^EXPOSE (.+)$/m.exec(dockerfile)?.[1] ?? '').split(' ');
    expect(hearth.ports?.map((p) => p.split(':')[1])).toEqual(exposed);
  });

  it('runs PostgreSQL only under its profile; the Docker socket is opt-in', () => {
    expect(compose.services.postgres?.profiles).toEqual(['postgres']);
    expect(hearth.profiles).toBeUndefined();
    expect(hearth.environment?.HEARTH_PANEL_DATABASE_URL).toContain('sqlite:/var/lib/hearth/hearth.db');
    expect(JSON.stringify(hearth.volumes)).not.toContain('docker.sock');
  });
});
