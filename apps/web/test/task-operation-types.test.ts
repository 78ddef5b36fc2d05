/** The task editor's step types: only what the user could do by hand (docs/security.md § Tasks). */
import { describe, expect, it } from 'vitest';
import {
  firstStepType,
  offeredStepTypes,
  rowStepTypes,
  stepHolder,
} from '../src/features/servers/tasks/operation-types';

describe('task step types offered', () => {
  it('an admin or editServerAdmin holder is offered raw commands and downloads', () => {
    for (const scopes of [['servers.admin'], ['servers.edit.admin']]) {
      const offered = offeredStepTypes(stepHolder(scopes, {}));
      expect(offered).toEqual(
        expect.arrayContaining(['command', 'download', 'mojangdl', 'start', 'console']),
      );
      expect(offered.slice(0, 3)).toEqual(['console', 'start', 'stop']);
    }
  });

  it('editServerData alone is offered only steps needing no flag', () => {
    const offered = offeredStepTypes(
      stepHolder(['servers.view'], { editServerData: true, deleteServer: true }),
    );
    expect(offered).toEqual(['sleep', 'wait']);
    expect(firstStepType(offered)).toBe('sleep');
  });

  it('each flag adds what it allows by hand, never commands', () => {
    const holder = stepHolder([], {
      editServerData: true,
      sendServerConsole: true,
      startServer: true,
      putServerFiles: true,
    });
    expect(offeredStepTypes(holder)).toEqual([
      'console',
      'start',
      'sleep',
      'wait',
      'writefile',
      'move',
      'mkdir',
      'extract',
    ]);
    expect(firstStepType(offeredStepTypes(holder))).toBe('console');
    const both = stepHolder([], {
      startServer: true,
      stopServer: true,
      viewServerFiles: true,
      putServerFiles: true,
    });
    expect(offeredStepTypes(both)).toEqual(expect.arrayContaining(['restart', 'kill', 'alterfile']));
    expect(offeredStepTypes(both)).not.toContain('command');
  });

  it('a row keeps showing its own type when it is not offered; nothing offered adds nothing', () => {
    expect(rowStepTypes(['sleep', 'wait'], 'command')).toEqual(['sleep', 'wait', 'command']);
    expect(rowStepTypes(['sleep', 'wait'], 'wait')).toEqual(['sleep', 'wait']);
    expect(firstStepType([])).toBeNull();
  });
});
