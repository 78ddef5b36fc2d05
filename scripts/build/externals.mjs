// The runtime dependencies the production bundle does NOT contain: they stay in node_modules beside it
// (docs/adr/0006-production-build.md). Native modules must be built for the Node that runs Hearth; the rest
// read their own files at run time (__dirname) or are loaded only when configured (database drivers, Docker,
// e-mail), so bundling them would only slow the start.
export const externals = [
  // native
  'better-sqlite3',
  'node-pty',
  'ssh2',
  'cpu-features',
  '@node-rs/argon2',
  // loaded on first use only (createRequire): PostgreSQL, MariaDB/MySQL, Docker, SMTP
  'pg',
  'mysql2',
  'dockerode',
  'nodemailer',
  // read their own static files at run time
  '@fastify/swagger-ui',
  // parts of Fastify that Hearth never loads (its zod compilers replace Ajv and fast-json-stringify; inject() is
  // only the Swagger docs'): outside the bundle they cost nothing at start
  '@fastify/ajv-compiler',
  '@fastify/fast-json-stringify-compiler',
  'light-my-request',
];

// Optional accelerators `ws` tries to require inside try/catch; absent here, and never bundled.
export const optionalPeers = ['bufferutil', 'utf-8-validate'];
