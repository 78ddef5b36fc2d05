import type { ProcessorOf } from '@hearth/contract';
import type { ProcessorContext } from './context';
import { fetchToFile, fileNameOf } from './fetch-to-file';

/** `download`: each URL is saved in the server folder under the last segment of its final URL's path. */
export async function runDownload(step: ProcessorOf<'download'>, ctx: ProcessorContext): Promise<void> {
  for (const url of step.files) await fetchToFile(url, fileNameOf, ctx);
}
