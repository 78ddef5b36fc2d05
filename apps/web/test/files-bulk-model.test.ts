import { describe, expect, it } from 'vitest';
import { folderUpload, selectionArchive } from '../src/features/servers/files/file-model';

const file = (name: string) => new File(['x'], name);

describe('bulk file rules', () => {
  it('the ticked entries are zipped in their folder, named after it (the server at the root)', () => {
    expect(selectionArchive('mods/pack', ['a.txt', 'inner'], 'My server')).toEqual({
      destination: 'mods/pack/pack.zip',
      sources: ['mods/pack/a.txt', 'mods/pack/inner'],
    });
    expect(selectionArchive('', ['a.txt', '..'], 'My/server')).toEqual({
      destination: 'My_server.zip',
      sources: ['a.txt'],
    });
  });

  it('a picked folder uploads into its own folder tree, parents first', () => {
    const top = file('top.txt');
    const low = file('low.txt');
    const mid = file('mid.txt');
    expect(
      folderUpload('world', [
        { file: low, relativePath: 'mods/sub/deeper/low.txt' },
        { file: top, relativePath: 'mods/top.txt' },
        { file: mid, relativePath: 'mods/sub/mid.txt' },
      ]),
    ).toEqual([
      { folder: 'world/mods', files: [top] },
      { folder: 'world/mods/sub', files: [mid] },
      { folder: 'world/mods/sub/deeper', files: [low] },
    ]);
  });
});
