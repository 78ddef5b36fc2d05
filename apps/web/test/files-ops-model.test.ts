import { describe, expect, it } from 'vitest';
import {
  hitFolder,
  parseOctal,
  permissionBit,
  renameTarget,
  symbolic,
  toOctal,
  transfers,
} from '../src/features/servers/files/file-ops-model';

describe('file operations model', () => {
  it('maps the nine boxes to mode bits and back through octal', () => {
    expect(permissionBit('owner', 'read')).toBe(0o400);
    expect(permissionBit('group', 'write')).toBe(0o020);
    expect(permissionBit('others', 'execute')).toBe(0o001);
    expect(toOctal(0o755)).toBe('755');
    expect(toOctal(0o4755)).toBe('755'); // setuid is never offered
    expect(toOctal(0o7)).toBe('007');
    expect(symbolic(0o750)).toBe('rwxr-x---');
  });

  it('accepts three octal digits (or four with a leading 0) and nothing else', () => {
    expect(parseOctal('644')).toBe(0o644);
    expect(parseOctal(' 0755 ')).toBe(0o755);
    for (const bad of ['', '78', '888', '4755', '1777', 'rwx', '64', '6444'])
      expect(parseOctal(bad), bad).toBeNull();
  });

  it('sends each ticked entry to the destination folder under its own name', () => {
    expect(transfers('world', ['a.txt', 'region'], '/backup/')).toEqual([
      { from: 'world/a.txt', to: 'backup/a.txt' },
      { from: 'world/region', to: 'backup/region' },
    ]);
    expect(transfers('', ['a.txt'], '')).toEqual([{ from: 'a.txt', to: 'a.txt' }]);
  });

  it('renames beside the old name; a blank name, a slash or .. is not a name', () => {
    expect(renameTarget('world', ' level.dat ')).toBe('world/level.dat');
    for (const bad of ['', '  ', '..', '.', 'a/b', 'a\\b'])
      expect(renameTarget('world', bad), bad).toBeNull();
  });

  it('opens a file hit in its folder and a folder hit itself', () => {
    expect(hitFolder('world/region/r.mca', true)).toBe('world/region');
    expect(hitFolder('top.txt', true)).toBe('');
    expect(hitFolder('world/region', false)).toBe('world/region');
  });
});
