import { shippedPath } from '@hearth/contract/shipped-files';
import { scanFolder } from './folder-scan';
import type { FolderScan, TemplateSource } from './types';

/** The starter set shipped with Hearth (`apps/panel/templates`, or `share/templates` in the build). */
export const bundledTemplatesDir = shippedPath('templates');

/** A folder on the panel's disk in PufferPanel layout: the bundled set or an admin's own folder. */
export class FolderSource implements TemplateSource {
  constructor(
    readonly id: string,
    private readonly root: string,
  ) {}

  async scan(): Promise<FolderScan & { error?: string }> {
    try {
      return await scanFolder(this.root);
    } catch (err) {
      return {
        files: [],
        problems: [],
        error: `cannot read template folder ${this.root}: ${(err as Error).message}`,
      };
    }
  }
}
