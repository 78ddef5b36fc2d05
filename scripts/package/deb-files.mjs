// The Debian-specific files of the package: control data, maintainer scripts, conffile, units, the command
// wrapper, documentation, and the holder built at package time (so the target needs no C compiler:
// docs/daemon.md § Supervision).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** `hearth-holder-<first 16 hex digits of the source's SHA-256>`, the name the daemon looks for. */
export function buildHolder(dir) {
  const source = join(dir, 'hearth-holder.c');
  const hash = createHash('sha256').update(readFileSync(source)).digest('hex').slice(0, 16);
  const target = join(dir, `hearth-holder-${hash}`);
  execFileSync(process.env.CC || 'cc', ['-std=c11', '-O2', '-Wall', '-s', '-o', target, source]);
  return target;
}

/**
 * Native add-ons and the runtime without symbols (smaller; Debian ships binaries stripped), and add-ons not
 * executable (they are loaded, never run).
 */
export function stripBinaries(lib) {
  const addons = execFileSync('find', [lib, '-name', '*.node', '-type', 'f'], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
  for (const addon of addons) chmodSync(addon, 0o644);
  execFileSync('strip', ['--strip-unneeded', join(lib, 'node'), ...addons], { stdio: 'inherit' });
}

/** Kibibytes under `dir`, for the control file's Installed-Size. */
export function installedSize(dir) {
  return Number(execFileSync('du', ['-sk', '--apparent-size', dir], { encoding: 'utf8' }).split('\t')[0]);
}

function put(path, text, mode = 0o644) {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  chmodSync(path, mode);
}

export function debianFiles({ root, stage, version, arch, size }) {
  const src = (name) => readFileSync(join(root, 'packaging/debian', name), 'utf8');
  const control = src('control.in')
    .replace('@VERSION@', version)
    .replace('@ARCH@', arch)
    .replace('@SIZE@', size);
  put(join(stage, 'DEBIAN/control'), control);
  put(join(stage, 'DEBIAN/conffiles'), '/etc/hearth/config.json\n');
  for (const script of ['postinst', 'prerm', 'postrm'])
    put(join(stage, 'DEBIAN', script), src(script), 0o755);
  put(join(stage, 'etc/hearth/config.json'), src('config.json'));
  put(join(stage, 'usr/bin/hearth'), src('hearth'), 0o755);
  for (const unit of ['hearth.service', 'hearth-daemon.service'])
    put(join(stage, 'lib/systemd/system', unit), src(unit));
  const doc = join(stage, 'usr/share/doc/hearth');
  put(join(doc, 'copyright'), src('copyright'));
  cpSync(join(root, 'docs/operations.md'), join(doc, 'operations.md'));
  const date = new Date().toUTCString().replace('GMT', '+0000');
  const changelog = `hearth (${version}) unstable; urgency=medium\n\n  * Release ${version}.\n\n -- Hearth maintainers <maintainers@hearth-project.org>  ${date}\n`;
  put(join(doc, 'changelog.gz'), gzipSync(changelog, { level: 9 }));
  put(join(stage, 'usr/share/lintian/overrides/hearth'), src('lintian-overrides'));
  const sums = execFileSync(
    'sh',
    ['-c', "find . -path ./DEBIAN -prune -o -type f -printf '%P\\0' | xargs -0 md5sum"],
    {
      cwd: stage,
      encoding: 'utf8',
    },
  );
  put(join(stage, 'DEBIAN/md5sums'), sums);
}
