/**
 * The one-step install of a node on a fresh Debian machine (docs/operations.md § Remote node): shell commands an
 * operator pastes as root, in order. The node config goes first, so the package's postinst sees a node-only
 * machine and does not start a panel there (packaging/debian/postinst); the package comes from this panel
 * (`GET /api/nodes/{id}/package`, node-package.routes.ts) with the node's own credential, fed to curl on its
 * standard input so it never shows in the process list.
 */

/** `text` as one single-quoted shell word. */
export function shellWord(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Where the steps put things on the node (the paths hearth-daemon.service reads). */
export const NODE_CONFIG_FILE = '/etc/hearth/node.json';
const DOWNLOAD = '/tmp/hearth.deb';

export function installStepsOf(node: {
  id: string;
  clientId: string;
  secret: string;
  panelUrl: string;
  config: Record<string, unknown>;
}): string[] {
  const url = `${node.panelUrl.replace(/\/+$/, '')}/api/nodes/${encodeURIComponent(node.id)}/package`;
  // A curl config line: backslashes and double quotes escaped as curl's config syntax wants.
  const user = `user = "${`${node.clientId}:${node.secret}`.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
  return [
    `install -d -m 0755 /etc/hearth && (umask 077 && cat > ${NODE_CONFIG_FILE}) <<'EOF'\n${JSON.stringify(node.config, null, 2)}\nEOF`,
    'command -v curl >/dev/null || { apt-get update && apt-get install -y curl; }',
    `printf '%s\\n' ${shellWord(user)} | curl -fsS -K - -o ${DOWNLOAD} ${shellWord(url)}"?arch=$(dpkg --print-architecture)"`,
    `apt-get install -y ${DOWNLOAD} && rm -f ${DOWNLOAD}`,
    'systemctl enable --now hearth-daemon.service',
  ];
}
