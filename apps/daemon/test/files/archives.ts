/** Real archives made by real tools, and hand-crafted evil ones (Python's zipfile/tarfile write raw names). */
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const PY_EVIL = String.raw`
import io, sys, tarfile, zipfile, struct
out = sys.argv[1]
# zip: ../ entry, absolute entry, symlink entry pointing out, one good file
with zipfile.ZipFile(out + '/evil.zip', 'w') as z:
    z.writestr('../zip-escape.txt', 'pwned')
    z.writestr('/tmp/zip-absolute.txt', 'pwned')
    link = zipfile.ZipInfo('zip-link')
    link.external_attr = (0o120777 << 16)
    z.writestr(link, '/etc/passwd')
    z.writestr('good/ok.txt', 'fine')
# tar: the same, plus a hard link and a file below the symlink
with tarfile.open(out + '/evil.tar', 'w') as t:
    def add(name, data=b'pwned', kind=tarfile.REGTYPE, link=''):
        info = tarfile.TarInfo(name); info.type = kind; info.linkname = link; info.size = len(data) if kind == tarfile.REGTYPE else 0
        t.addfile(info, io.BytesIO(data) if kind == tarfile.REGTYPE else None)
    add('../tar-escape.txt'); add('/tmp/tar-absolute.txt')
    add('tar-link', kind=tarfile.SYMTYPE, link='/etc')
    add('tar-link/passwd-overwrite')
    add('tar-hard', kind=tarfile.LNKTYPE, link='/etc/passwd')
    add('good/ok.txt', b'fine')
# bomb: 1 KB zip whose header claims 10 GB
buf = io.BytesIO()
with zipfile.ZipFile(buf, 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('bomb.bin', b'\0' * 512)
data = bytearray(buf.getvalue())
ten_gb = 10 * 1024 ** 3
for sig, off in ((b'PK\x03\x04', 22), (b'PK\x01\x02', 24)):
    i = data.find(sig); struct.pack_into('<I', data, i + off, 0xFFFFFFFE)
# a zip64-less lying size is clamped at 4 GiB; the tar header can say 10 GB
open(out + '/bomb.zip', 'wb').write(bytes(data))
info = tarfile.TarInfo('bomb.bin'); info.size = ten_gb
open(out + '/bomb.tar', 'wb').write(info.tobuf(tarfile.GNU_FORMAT, 'utf-8', 'surrogateescape') + b'\0' * 1024)
`;

export async function makeArchives(dir: string): Promise<void> {
  const src = join(dir, 'src');
  await mkdir(join(src, 'world', 'region'), { recursive: true });
  await writeFile(join(src, 'world', 'level.dat'), 'level');
  await writeFile(join(src, 'world', 'region', 'r.0.0.mca'), Buffer.alloc(4096, 7));
  await writeFile(join(src, 'readme.txt'), 'hello archive');
  const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { cwd: src, stdio: 'ignore' });
  run('zip', ['-qr', join(dir, 'real.zip'), 'world', 'readme.txt']);
  run('zip', ['-qr', join(dir, 'real.jar'), 'readme.txt']);
  run('tar', ['-cf', join(dir, 'real.tar'), 'world', 'readme.txt']);
  run('tar', ['-czf', join(dir, 'real.tgz'), 'world', 'readme.txt']);
  run('tar', ['-cJf', join(dir, 'real.tar.xz'), 'world', 'readme.txt']);
  run('tar', ['-cjf', join(dir, 'real.tar.bz2'), 'world', 'readme.txt']);
  run('7z', ['a', '-bd', join(dir, 'real.7z'), 'world', 'readme.txt']);
  execFileSync('sh', ['-c', `gzip -c readme.txt > ${dir}/single.txt.gz`], { cwd: src });
  execFileSync('sh', ['-c', `xz -c readme.txt > ${dir}/single.txt.xz`], { cwd: src });
  execFileSync('sh', ['-c', `bzip2 -c readme.txt > ${dir}/single.txt.bz2`], { cwd: src });
  // A stream bomb: 64 MiB of zeros in ~64 KiB (the test daemon allows 16 MiB).
  execFileSync('sh', ['-c', `head -c 67108864 /dev/zero | gzip -9 > ${dir}/stream-bomb.gz`]);
  execFileSync('python3', ['-c', PY_EVIL, dir]);
}
