/**
 * Makes sure the image exists locally: inspect, else pull with progress lines in the console (one per layer
 * status change, not every byte). A pull that cannot happen (no registry, unknown image) is
 * ErrDockerImageMissing naming the image, after a console line saying why.
 */
import type Docker from 'dockerode';
import type { DaemonSay } from '@hearth/contract/daemon-messages';
import { AppError, isAppError } from '@hearth/contract';
import { dockerErrorOf } from './errors';

interface PullEvent {
  status?: string;
  id?: string;
  error?: string;
  errorDetail?: { message?: string };
}

function followPull(docker: Docker, stream: NodeJS.ReadableStream, say: DaemonSay): Promise<void> {
  const seen = new Set<string>();
  return new Promise((resolve, reject) => {
    docker.modem.followProgress(
      stream,
      (err: Error | null, events: PullEvent[]) => {
        const failed = events?.find((e) => e.error);
        if (err || failed) reject(err ?? new Error(failed?.errorDetail?.message ?? failed?.error));
        else resolve();
      },
      (event: PullEvent) => {
        if (!event.status || event.error) return;
        const line = event.id ? `${event.id}: ${event.status}` : event.status;
        if (seen.has(line)) return;
        seen.add(line);
        if (event.id) say('docker.pullLayer', { layer: event.id, status: event.status });
        else say('docker.pullStatus', { status: event.status });
      },
    );
  });
}

export async function ensureImage(docker: Docker, image: string, say: DaemonSay): Promise<void> {
  if (!image) throw new AppError('ErrDockerImageMissing', { image: '(empty)' });
  try {
    await docker.getImage(image).inspect();
    return;
  } catch (err) {
    const mapped = dockerErrorOf(err);
    if ((err as { statusCode?: number }).statusCode !== 404) throw mapped;
  }
  say('docker.pulling', { image });
  try {
    const stream = await docker.pull(image);
    await followPull(docker, stream, say);
    say('docker.pulled', { image });
  } catch (err) {
    const mapped = dockerErrorOf(err, image);
    if (isAppError(err) || ['ErrDockerNotAvailable', 'ErrDockerPermission'].includes(mapped.code))
      throw mapped;
    const reason = err instanceof Error ? (err.message.split('\n')[0] ?? '') : String(err);
    say('docker.pullFailed', { image, reason });
    throw new AppError('ErrDockerImageMissing', { image, reason }, { cause: err });
  }
}
