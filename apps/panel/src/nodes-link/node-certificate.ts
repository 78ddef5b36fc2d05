/**
 * The certificate the panel generates for a node (docs/security.md § Node link): an ECDSA P-256 key pair and a
 * self-signed X.509 certificate valid for the node's private and public hosts. The node's deployment config
 * carries both; the panel keeps the certificate and its SHA-256 fingerprint (the pin) and the key only sealed.
 * Host names are informative: the panel verifies a pinned node by the fingerprint alone.
 */
import { createPrivateKey, generateKeyPairSync, randomBytes, sign, X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import * as der from './der';

/** Long enough never to surprise an operator; a rotation issues a new one at any time. */
export const NODE_CERTIFICATE_YEARS = 10;

export interface NodeCertificate {
  certPem: string;
  /** PKCS#8 PEM. */
  keyPem: string;
  /** `AB:CD:…`, SHA-256 of the certificate's DER (as Node's `X509Certificate.fingerprint256`). */
  fingerprint: string;
}

const OID = {
  commonName: '2.5.4.3',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
};

const v4Bytes = (host: string) => Buffer.from(host.split('.').map(Number));

function ipBytes(host: string): Buffer {
  if (isIP(host) === 4) return v4Bytes(host);
  // IPv6: a dotted IPv4 tail (`::ffff:10.0.0.1`) becomes two groups; expand `::`; write the eight groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(host)?.[1];
  const v6 = dotted
    ? host.replace(
        dotted,
        v4Bytes(dotted)
          .toString('hex')
          .replace(/^(.{4})/, '$1:'),
      )
    : host;
  const [head = '', tail] = v6.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return Buffer.concat(groups.map((g) => Buffer.from(g.padStart(4, '0'), 'hex')));
}

/** GeneralName: dNSName [2] or iPAddress [7] (IMPLICIT, primitive). */
function generalName(host: string): Buffer {
  return isIP(host) ? der.tlv(0x87, ipBytes(host)) : der.tlv(0x82, Buffer.from(host, 'ascii'));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return der.sequence(der.oid(id), ...(critical ? [der.boolean(true)] : []), der.octetString(value));
}

function name(commonName: string): Buffer {
  return der.sequence(der.set(der.sequence(der.oid(OID.commonName), der.utf8String(commonName))));
}

/** A fresh key pair and certificate for `hosts` (IPs or DNS names; duplicates and blanks dropped). */
export function generateNodeCertificate(opts: {
  commonName: string;
  hosts: string[];
  now?: Date;
}): NodeCertificate {
  const now = opts.now ?? new Date();
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const serial = randomBytes(16);
  serial[0] = (serial[0] ?? 0) & 0x7f; // positive, at most 20 octets (RFC 5280 §4.1.2.2)
  const hosts = [...new Set(opts.hosts.map((h) => h.trim().replace(/\.$/, '')).filter(Boolean))];
  const algorithm = der.sequence(der.oid(OID.ecdsaWithSha256));
  const subject = name(opts.commonName);
  const notBefore = new Date(now.getTime() - 60 * 60 * 1000); // an hour of clock skew
  const notAfter = new Date(now);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + NODE_CERTIFICATE_YEARS);
  const extensions = [
    extension(OID.basicConstraints, true, der.sequence()),
    // digitalSignature only: 0x80 is bit 0 of the first byte.
    extension(OID.keyUsage, true, der.tlv(0x03, Buffer.from([0x07, 0x80]))),
    extension(OID.extKeyUsage, false, der.sequence(der.oid(OID.serverAuth))),
    ...(hosts.length > 0
      ? [extension(OID.subjectAltName, false, der.sequence(...hosts.map(generalName)))]
      : []),
  ];
  const tbs = der.sequence(
    der.explicit(0, der.smallInteger(2)), // v3
    der.unsignedInteger(serial),
    algorithm,
    subject,
    der.sequence(der.time(notBefore), der.time(notAfter)),
    subject,
    publicKey.export({ type: 'spki', format: 'der' }),
    der.explicit(3, der.sequence(...extensions)),
  );
  const signature = sign('sha256', tbs, privateKey);
  const certDer = der.sequence(tbs, algorithm, der.bitString(signature));
  const certPem = `-----BEGIN CERTIFICATE-----\n${certDer
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .replace(/\n$/, '')}\n-----END CERTIFICATE-----\n`;
  const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  // Node's own parser reads it back: a malformed encoding fails here, never at a node.
  const parsed = new X509Certificate(certPem);
  if (!parsed.verify(publicKey) || !parsed.checkPrivateKey(createPrivateKey(keyPem))) {
    throw new Error('generated node certificate does not verify');
  }
  return { certPem, keyPem, fingerprint: parsed.fingerprint256 };
}
