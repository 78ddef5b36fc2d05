/**
 * Socket `file` messages: get lists a folder, create makes a folder (with parents) and lists it,
 * delete removes recursively and lists the parent. The answer is always a `file-list`; a failure carries
 * `error` (and path `''`) so the browser clears its loading flag.
 */
import { AppError, type DaemonTokenClaims, type FileList } from '@hearth/contract';
import { canonical, listFolder } from '../filesystem/listing';
import type { Sandbox } from '../filesystem/sandbox';
import { socketError } from './errors';
import { authorize } from './permissions';

export interface FileMessage {
  action: 'get' | 'create' | 'delete';
  path: string;
}

async function act(sandbox: Sandbox, message: FileMessage): Promise<FileList> {
  const path = canonical(message.path);
  switch (message.action) {
    case 'get':
      if (!(await sandbox.lstat(path)).isDirectory()) throw new AppError('ErrNotADirectory', { path });
      return listFolder(sandbox, path);
    case 'create':
      await sandbox.mkdirp(path);
      return listFolder(sandbox, path);
    case 'delete':
      await sandbox.remove(path);
      return listFolder(sandbox, path.split('/').slice(0, -1).join('/'));
  }
}

export async function answerFileMessage(
  sandbox: Sandbox,
  claims: DaemonTokenClaims,
  serverId: string,
  message: FileMessage,
): Promise<FileList> {
  try {
    authorize(claims, serverId, message.action === 'get' ? 'viewServerFiles' : 'putServerFiles');
    return await act(sandbox, message);
  } catch (err) {
    const known = socketError(err);
    return { files: [], path: '', error: known.message };
  }
}
