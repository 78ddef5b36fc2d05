/**
 * Console lines the daemon writes itself ("Running task …", "Definition reloaded"), by code (issue 16 item 13,
 * docs/adr/0013-daemon-message-codes.md). Each line keeps its English text, so SPEC's console frames (`logs`:
 * strings) read as before for API clients; after the text it carries an OSC escape sequence naming the code and
 * its parameters, `ESC ] 7767 ; hearth ; <code> ; <k=v&…> BEL`, which terminals ignore and common ANSI
 * strippers remove. The web app finds the marker and shows the line in the reader's language.
 */

/** The English wording of each message; `{name}` is a parameter. */
export const daemonMessages = {
  'task.running': 'Running task {name}',
  'task.finished': 'Task {name} finished',
  'task.failed': 'Task {name} failed',
  'task.notRun': 'Task {name} not run: {reason}',
  'task.step': 'Task {name} step {index}/{total} ({operation})',
  'task.stepFailed': 'Task {name} step {index}/{total} ({operation}) failed: {reason}',
  'task.skipped': 'Task {name} skipped ({trigger}): its previous run is still going',
  'definition.reloaded': 'Definition reloaded',
  'power.starting': 'Starting server',
  'power.startingAuto': 'Starting server (automatic restart)',
  'power.startFailed': 'Could not start the server: {reason}',
  'power.alreadyRunning': 'The server is already running',
  'power.stoppingSignal': 'Stopping server (signal {signal})',
  'power.stoppingCommand': "Stopping server ('{command}')",
  'power.stopTimeout': 'The server did not stop within {seconds} s; killing it',
  'power.killing': 'Killing server',
  'power.killingPhase': 'Killing the running phase',
  'power.autoRestartFailed': 'Automatic restart failed: {reason}',
  'exit.code': 'Server exited with code {code} after {seconds} s',
  'exit.signal': 'Server exited with signal {signal} after {seconds} s',
  'exit.postStopFailed': 'Post-stop hooks failed: {reason}',
  'crash.stoppedOnRequest': 'Stopped on request; no automatic restart.',
  'crash.cleanNoRestart': 'Exited cleanly; autorestart is off.',
  'crash.noRecover': 'Crashed; autorecover is off.',
  'crash.givingUp': 'Ran less than {seconds} s {runs} times in a row; giving up. Start it again by hand.',
  'crash.restarting': 'Restarting in {seconds} s ({setting}).',
  'crash.restartingUnstable': 'Restarting in {seconds} s ({setting}) (unstable run {runs} of {max}).',
  'install.started': 'Installing server',
  'install.finished': 'Install finished',
  'install.failed': 'Install failed: {reason}',
  'phase.refused': '{phase} refused: {reason}',
  'phase.step': '{phase} step {index}/{total} ({type})',
  'phase.stepFailed': '{phase} step {index}/{total} ({type}) failed: {reason}',
  'phase.stepKilled': '{phase} step {index}/{total} ({type}) failed: aborted by a kill',
  'step.command': 'Running: {command}',
  'step.download': 'Downloading {url} to {target}',
  'step.saved': 'Saved {target}',
  'step.savedVerified': 'Saved {target} (SHA-1 verified)',
  'step.altered': 'Altered {file}',
  'step.wrote': 'Wrote {target}',
  'step.createdFolder': 'Created folder {target}',
  'step.moved': 'Moved {source} to {target}',
  'step.extracted': 'Extracted {source}: {files} files, {folders} folders, {bytes} bytes',
  'step.extractSkipped': 'Skipped {name}: {reason}',
  'step.archived': 'Archived {sources} into {target}',
  'download.received': '  {mib} MiB received',
  'download.receivedPercent': '  {mib} MiB received ({percent}%)',
  'minecraft.version': 'Minecraft version {version}',
  'forge.noChecksum': 'No checksum for {url} ({reason}); continuing without verification',
  'forge.saved': 'Forge {version} installer saved as {file}',
  'fabric.installer': 'Fabric installer {version}',
  'sponge.build': 'SpongeForge {version} for Minecraft {minecraft}',
  'docker.bindingsIgnored': 'Extra bindings ignored: the definition was not written by an admin',
  'docker.portsIgnored': "Port bindings ignored: networkMode host shares the host's ports",
  'docker.pulling': 'Image {image} is not on this node; pulling it',
  'docker.pullStatus': 'Pull: {status}',
  'docker.pullLayer': 'Pull: {layer}: {status}',
  'docker.pulled': 'Pulled {image}',
  'docker.pullFailed': 'Cannot pull image {image}: {reason}',
  'docker.outOfMemory':
    'Out of memory: the container reached its memory limit and the kernel killed a process',
  'docker.oomKilled': 'The container was killed for using more memory than its limit',
  'docker.endedAway': 'The container ended while the daemon was away (code {code}); removed',
  'docker.reattached': 'Re-attached to the running container {name}; its last {lines} lines:',
  'supervision.recordRemoved': 'An unreadable run record of a previous daemon was removed',
  'supervision.endedAway': 'The server exited while the daemon was away; its last output:',
  'supervision.orphanKilled':
    "The server's holder was gone; its process (pid {pid}) was killed so it never runs twice",
  'supervision.reattached': 'Re-attached to the running server (pid {pid}); its recent output:',
  'supervision.reattachFailed': 'Cannot re-attach to the running server (pid {pid}): {reason}',
  'supervision.oneOffKilled': 'An install command left by the previous daemon was killed',
  'backup.started': 'Backup started ({trigger})',
  'backup.written': 'Backup {id} written',
  'backup.failed': 'Backup failed: {reason}',
  'backup.askingSave': 'Backup: asking the server to save',
  'backup.sendFailed': "Backup: could not send '{command}': {reason}",
  'backup.retention': 'Backup retention: {forgotten} older backup(s) forgotten',
  'backup.retentionFailed': 'Backup retention not applied: {reason}',
  'restore.started': 'Restoring backup {id}',
  'restore.finished': 'Restore finished',
  'restore.failed': 'Restore failed: {reason}; the server folder is unchanged',
} as const;

export type DaemonMessageCode = keyof typeof daemonMessages;

/**
 * Parameters whose value is one of a few ids rather than content: the English word for each id (the web app
 * translates them as `daemonMessages.terms.<param>.<id>`).
 */
export const daemonMessageTerms = {
  phase: { install: 'Install', preStart: 'Pre-start', postStop: 'Post-stop', start: 'Start' },
  trigger: { schedule: 'schedule', manual: 'manual', task: 'task' },
} as const;
type Terms = typeof daemonMessageTerms;
/** The phases a processor list runs in. */
export type DaemonPhase = keyof Terms['phase'];

type ParamNames<S extends string> = S extends `${string}{${infer P}}${infer Rest}`
  ? P | ParamNames<Rest>
  : never;

/** The parameters a code's wording names: a term's id (see {@link daemonMessageTerms}), else a string or number. */
export type DaemonMessageParams<C extends DaemonMessageCode> = {
  [K in ParamNames<(typeof daemonMessages)[C]>]: K extends keyof Terms ? keyof Terms[K] : string | number;
};

/** Writes a daemon line by code (the server's `say`; environments and processors get it to write their lines). */
export type DaemonSay = <C extends DaemonMessageCode>(code: C, params: DaemonMessageParams<C>) => void;

/** The English word of a term parameter's id, or null when `name` is no term or `value` no id of it. */
export function daemonTermText(name: string, value: string): string | null {
  const words: Record<string, string> | undefined = (
    daemonMessageTerms as Record<string, Record<string, string>>
  )[name];
  return words && Object.hasOwn(words, value) ? (words[value] ?? null) : null;
}

const MARKER_START = '\u001b]7767;hearth;';
const MARKER_END = '\u0007';
// eslint-disable-next-line no-control-regex
const MARKER = /\u001b\]7767;hearth;([A-Za-z0-9.]+);([A-Za-z0-9._~%=&-]*)\u0007/;
// eslint-disable-next-line no-control-regex
const MARKER_ALL = /\u001b\]7767;hearth;[A-Za-z0-9.]+;[A-Za-z0-9._~%=&-]*\u0007/g;

/** Everything outside `[A-Za-z0-9._~-]` percent-encoded: what ANSI strippers accept inside an OSC sequence. */
function encode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** Fills a wording's `{name}` parameters (unknown ones stay as written). */
export function fillDaemonMessage(wording: string, params: Record<string, string | number>): string {
  return wording.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

/** The English text of a message, with each term id written as its English word. */
export function daemonMessageText<C extends DaemonMessageCode>(
  code: C,
  params: DaemonMessageParams<C>,
): string {
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(params as Record<string, string | number>)) {
    values[name] = (typeof value === 'string' && daemonTermText(name, value)) || value;
  }
  return fillDaemonMessage(daemonMessages[code], values);
}

/** The console line body: English text, then the marker naming code and parameters. */
export function daemonMessageLine<C extends DaemonMessageCode>(
  code: C,
  params: DaemonMessageParams<C>,
): string {
  const query = Object.entries(params as Record<string, string | number>)
    .map(([k, v]) => `${encode(k)}=${encode(String(v))}`)
    .join('&');
  return `${daemonMessageText(code, params)}${MARKER_START}${code};${query}${MARKER_END}`;
}

/** The line without any daemon message marker: what a reader of the English text sees. */
export function stripDaemonMarker(line: string): string {
  return line.includes(MARKER_START) ? line.replace(MARKER_ALL, '') : line;
}

export interface ParsedDaemonMessage {
  code: string;
  params: Record<string, string>;
  /** The line without its marker (the English text and anything around it). */
  text: string;
}

/** The code and parameters of a line carrying a marker, or null (older daemons, game output). */
export function parseDaemonMessage(line: string): ParsedDaemonMessage | null {
  const match = MARKER.exec(line);
  if (!match) return null;
  const params: Record<string, string> = {};
  for (const pair of (match[2] ?? '').split('&')) {
    if (pair === '') continue;
    const [k = '', v = ''] = pair.split('=');
    try {
      params[decodeURIComponent(k)] = decodeURIComponent(v);
    } catch {
      return null; // a malformed escape: not one of ours, show the line as it came
    }
  }
  return { code: match[1] ?? '', params, text: line.replace(MARKER, '') };
}
