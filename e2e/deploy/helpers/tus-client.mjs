/**
 * A tus client in its own process (tus-js-client in Node), so a test can kill it mid-upload like a dropped
 * connection or a closed laptop and start another that resumes. Arguments: endpoint, file, target path in the
 * server, bearer token, the URL storage file (where an unfinished upload's address is kept), chunk bytes.
 * Prints `resuming N` (earlier uploads found), `accepted B` after each chunk, `done` at the end.
 */
import { createReadStream } from 'node:fs';
import { FileUrlStorage, Upload } from 'tus-js-client';

const [endpoint, file, target, token, storage, chunk] = process.argv.slice(2);

const upload = new Upload(createReadStream(file), {
  endpoint,
  chunkSize: Number(chunk),
  retryDelays: [0, 1000, 3000],
  metadata: { path: target, filename: target.split('/').at(-1) },
  headers: { authorization: `Bearer ${token}` },
  urlStorage: new FileUrlStorage(storage),
  fingerprint: async () => `hearth-test|${target}`,
  storeFingerprintForResuming: true,
  removeFingerprintOnSuccess: true,
  onChunkComplete: (_size, accepted) => console.log(`accepted ${accepted}`),
  onSuccess: () => {
    console.log('done');
    process.exit(0);
  },
  onError: (err) => {
    console.error(`failed ${err.message}`);
    process.exit(1);
  },
});

const previous = await upload.findPreviousUploads();
console.log(`resuming ${previous.length}`);
if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
upload.start();
