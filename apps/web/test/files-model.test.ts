import { describe, expect, it } from 'vitest';
import type { FileEntry } from '@hearth/contract';
import {
  archiveTarget,
  entryPath,
  filterDrop,
  formatSize,
  isArchive,
  isImage,
  isSequenceTail,
  MAX_EDITABLE_FILE_BYTES,
  parentPath,
  percentOf,
  sortEntries,
  tooLargeToEdit,
  type DroppedItem,
} from '../src/features/servers/files/file-model';

const entry = (name: string, isFile = true): FileEntry => ({ name, isFile, size: 1, modifyTime: 0 });

describe('file manager model', () => {
  it('puts the parent first, then folders, then files, by name ignoring case', () => {
    const sorted = sortEntries([
      entry('b.txt'),
      entry('Zeta', false),
      entry('A.txt'),
      entry('..', false),
      entry('alpha', false),
      entry('a.txt'),
    ]);
    expect(sorted.map((e) => e.name)).toEqual(['..', 'alpha', 'Zeta', 'A.txt', 'a.txt', 'b.txt']);
  });

  it('formats sizes in binary units', () => {
    expect(formatSize(0, 'en-US')).toBe('0 B');
    expect(formatSize(1023, 'en-US')).toBe('1,023 B');
    expect(formatSize(1536, 'en-US')).toBe('1.5 KiB');
    expect(formatSize(20 * 1024 * 1024, 'en-US')).toBe('20 MiB');
    expect(formatSize(1536, 'de-DE')).toBe('1,5 KiB');
  });

  it('walks paths: entries, the parent entry, the root', () => {
    expect(entryPath('', entry('world', false))).toBe('world');
    expect(entryPath('a/b', entry('c'))).toBe('a/b/c');
    expect(entryPath('a/b', entry('..', false))).toBe('a');
    expect(entryPath('a', entry('..', false))).toBe('');
    expect(parentPath('/a//b/')).toBe('a');
  });

  it('names archives after the folder; the zip of the current folder goes to its parent', () => {
    expect(archiveTarget('', 'world', [], 'S')).toEqual({ destination: 'world.zip', sources: ['world'] });
    expect(archiveTarget('a/b', 'c', [], 'S')).toEqual({ destination: 'a/b/c.zip', sources: ['a/b/c'] });
    expect(archiveTarget('a/b', null, [], 'S')).toEqual({ destination: 'a/b.zip', sources: ['a/b'] });
    expect(archiveTarget('', null, ['..', 'x', 'y.txt'], 'My/Server')).toEqual({
      destination: 'My_Server.zip',
      sources: ['x', 'y.txt'],
    });
    expect(archiveTarget('', null, ['x'], '  ').destination).toBe('server.zip');
  });

  it('drops: folders counted (one message per drop), duplicate names uploaded once', () => {
    const file = (name: string, body = 'x') => new File([body], name);
    const items: DroppedItem[] = [
      { kind: 'file', file: file('a.txt') },
      { kind: 'folder', name: 'dir' },
      { kind: 'file', file: file('a.txt', 'again') },
      { kind: 'folder', name: 'dir2' },
      { kind: 'file', file: file('b.txt') },
    ];
    const { files, folders } = filterDrop(items);
    expect(files.map((f) => f.name)).toEqual(['a.txt', 'b.txt']);
    expect(folders).toBe(2);
    expect(filterDrop([]).files).toEqual([]);
  });

  it('knows the archive and image extensions and the 20 MiB editor limit', () => {
    for (const name of ['a.7z', 'a.tar.bz2', 'a.GZ', 'a.jar', 'a.lz', 'a.lzma', 'a.rar', 'a.tar', 'a.tgz'])
      expect(isArchive(name), name).toBe(true);
    for (const name of ['a.xz', 'a.zip', 'a.zipx']) expect(isArchive(name), name).toBe(true);
    for (const name of ['zip', 'a.txt', '.zip', 'a.zip.txt']) expect(isArchive(name), name).toBe(false);
    for (const name of ['a.jpeg', 'a.PNG', 'a.jpg', 'a.gif', 'a.webp', 'a.bmp', 'a.tiff', 'dir/a.svg'])
      expect(isImage(name), name).toBe(true);
    expect(isImage('a.ico')).toBe(false);
    expect(MAX_EDITABLE_FILE_BYTES).toBe(20971520);
    expect(tooLargeToEdit(20971520)).toBe(false);
    expect(tooLargeToEdit(20971521)).toBe(true);
  });

  it('progress percent and sequence tails', () => {
    expect(percentOf(0, 0)).toBe(0);
    expect(percentOf(50, 200)).toBe(25);
    expect(percentOf(300, 200)).toBe(100);
    expect(isSequenceTail(null, 10)).toBe(false);
    expect(isSequenceTail({ key: 't', at: 0 }, 500)).toBe(true);
    expect(isSequenceTail({ key: 't', at: 0 }, 1500)).toBe(false);
    expect(isSequenceTail({ key: 'x', at: 0 }, 10)).toBe(false);
  });
});
