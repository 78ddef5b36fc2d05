/** Add server sends the template form: the template id, environment type and values, never a definition. */
import { describe, expect, it } from 'vitest';
import { templateSchema } from '@hearth/contract';
import type { StoredTemplate } from '@hearth/contract/templates-api';
import { createBody, creationVariables } from '../src/features/servers/add/model';

const template: StoredTemplate = {
  ...templateSchema.parse({
    type: 'generic',
    data: {
      port: { type: 'integer', value: 25565, min: 1, max: 65535 },
      motd: { type: 'string', value: 'hi' },
      command: { type: 'string', value: './start.sh', userEdit: false },
      secret: { type: 'string', value: 'x', internal: true },
    },
    install: [{ type: 'command', commands: ['echo install'] }],
    run: { command: '${command}' },
    environment: { type: 'tty' },
    supportedEnvironments: [{ type: 'tty' }, { type: 'docker', image: 'debian' }],
  }),
  id: 'generic',
  name: 'generic',
  warnings: [],
};

const choice = {
  template,
  name: ' my server ',
  node: 'local',
  environment: { type: 'docker', image: 'debian' },
  values: { port: 30000, motd: 'hello', command: './other.sh' },
  users: ['a@example.com'],
};

describe('createBody', () => {
  it('a user: template id, environment type, values of userEdit variables only', () => {
    expect(createBody({ ...choice, canSetLocked: false })).toEqual({
      template: 'generic',
      name: 'my server',
      node: 'local',
      users: ['a@example.com'],
      environment: { type: 'docker' },
      data: { port: { value: 30000 }, motd: { value: 'hello' } },
    });
  });

  it('an admin: the admin-only variables too, still no definition fields', () => {
    const body = createBody({ ...choice, canSetLocked: true });
    expect(body.data).toEqual({
      port: { value: 30000 },
      motd: { value: 'hello' },
      command: { value: './other.sh' },
    });
    expect(Object.keys(body).sort()).toEqual(['data', 'environment', 'name', 'node', 'template', 'users']);
  });

  it('shows internal variables to nobody and admin-only ones to admins only', () => {
    expect(Object.keys(creationVariables(template, false))).toEqual(['port', 'motd']);
    expect(Object.keys(creationVariables(template, true))).toEqual(['port', 'motd', 'command']);
  });
});
