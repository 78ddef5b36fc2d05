/**
 * Row types of the panel database. Booleans are stored as integers 0/1 on every dialect (better-sqlite3
 * cannot bind booleans); times are epoch milliseconds in BIGINT columns (parsed to numbers on every driver).
 */
import type { Generated } from 'kysely';

export interface SettingsTable {
  key: string;
  value: string; // JSON-encoded typed value
}

export interface UsersTable {
  id: string;
  username: string;
  username_key: string; // lower-cased username: uniqueness ignores case on every dialect
  email: string; // stored lower-cased, unique
  password_hash: string | null; // null while an invitation is pending
  status: string; // 'active' | 'invited'
  otp_secret: string | null;
  otp_pending_secret: string | null; // enrolment in progress; the active secret stays until confirmed
  otp_enabled: number;
  otp_last_counter: number | null; // last accepted TOTP time step: a code is accepted at most once
  created_at: number;
  updated_at: number;
}

export interface UserSettingsTable {
  user_id: string;
  key: string;
  value: string;
}

/** One row per (user, server); `server_id = ''` is the user's panel-level row (NULL is not unique-able). */
export interface PermissionsTable {
  user_id: string;
  server_id: string;
  admin: number;
  view_servers: number;
  create_servers: number;
  delete_servers: number;
  edit_server_admin: number;
  view_nodes: number;
  edit_nodes: number;
  deploy_nodes: number;
  view_templates: number;
  edit_templates: number;
  view_users: number;
  edit_users: number;
  panel_settings: number;
  edit_server_data: number;
  edit_server_users: number;
  install_server: number;
  view_server_console: number;
  send_server_console: number;
  stop_server: number;
  start_server: number;
  view_server_stats: number;
  view_server_files: number;
  sftp_server: number;
  put_server_files: number;
  view_server_backups: number;
  create_server_backups: number;
  restore_server_backups: number;
  delete_server_backups: number;
  download_server_backups: number;
  view_server_activity: number;
  manage_server_alerts: number;
}

/**
 * The activity log (docs/activity.md): append-only — rows are inserted, and only the retention sweep deletes
 * (by age). `details` is a JSON object of facts, never secrets.
 */
export interface ActivityTable {
  id: string;
  time: number;
  actor_type: string; // contract activityActorTypes
  actor_id: string | null;
  actor_label: string;
  ip: string | null;
  server_id: string | null;
  node_id: string | null;
  action: string;
  details: string;
}

/** Browser sessions and OAuth2 access tokens: only the SHA-256 of the token is stored. */
export interface SessionsTable {
  token_hash: string;
  user_id: string;
  kind: string; // 'session' | 'oauth2'
  client_id: string | null;
  created_at: number;
  expires_at: number;
}

export interface OAuthClientsTable {
  id: string;
  user_id: string;
  server_id: string; // '' for account clients
  name: string;
  description: string;
  secret_hash: string;
  created_at: number;
  /** When a password change revoked the secret (0006); null while it mints tokens. */
  revoked_at: number | null;
}

export interface InvitesTable {
  token_hash: string;
  user_id: string;
  expires_at: number;
  used_at: number | null;
  created_at: number;
}

/** A two-factor recovery code (0010): its SHA-256; `used_at` once it replaced a code at login. */
export interface OtpRecoveryCodesTable {
  code_hash: string;
  user_id: string;
  used_at: number | null;
  created_at: number;
}

/** A "forgot password" link (0011): its token's SHA-256, valid until `expires_at`, once. */
export interface PasswordResetsTable {
  token_hash: string;
  user_id: string;
  expires_at: number;
  used_at: number | null;
  created_at: number;
}

/** A daemon the panel drives; `is_local` marks the node started beside the panel by `hearth start`. */
export interface NodesTable {
  id: string;
  name: string;
  public_host: string;
  public_port: number;
  private_host: string;
  private_port: number;
  sftp_port: number;
  secret_hash: string; // SHA-256 of the node credential (verified on every node-only call)
  is_local: number;
  created_at: number;
  /** 'pinned' | 'ca' | 'plain' (contract nodes.ts NodeTlsMode; docs/security.md § Node link). */
  tls_mode: string;
  /** PEM of the certificate the panel generated for the node; null for nodes from before 0005. */
  tls_cert: string | null;
  /** SHA-256 of that certificate's DER, `AB:CD:…` (Node's X509Certificate.fingerprint256): the pin. */
  tls_fingerprint: string | null;
  /** The certificate's private key (PKCS#8 PEM), sealed by SecretBox. */
  tls_key_sealed: string | null;
  /** The node credential's secret, sealed by SecretBox (the deployment shows it again; the hash verifies). */
  secret_sealed: string | null;
  /** 'inbound' | 'outbound' (contract nodes.ts NodeLinkMode): who opens the link. */
  link: Generated<string>;
}

/** A server the panel knows of; its definition lives on the node's daemon. */
export interface ServersTable {
  id: string;
  name: string;
  node_id: string;
  ip: string;
  port: number | null;
  type: string;
  created_at: number;
}

export interface Database {
  settings: SettingsTable;
  users: UsersTable;
  user_settings: UserSettingsTable;
  permissions: PermissionsTable;
  sessions: SessionsTable;
  oauth2_clients: OAuthClientsTable;
  invites: InvitesTable;
  otp_recovery_codes: OtpRecoveryCodesTable;
  password_resets: PasswordResetsTable;
  nodes: NodesTable;
  servers: ServersTable;
  activity: ActivityTable;
  node_event_cursors: NodeEventCursorsTable;
  alert_rules: AlertRulesTable;
  alert_targets: AlertTargetsTable;
  alert_deliveries: AlertDeliveriesTable;
}

/** An alert rule (docs/alerts.md); `condition` is the contract's AlertCondition as JSON; no server = global. */
export interface AlertRulesTable {
  id: string;
  name: string;
  enabled: number;
  server_id: string | null;
  condition: string;
  created_by: string | null;
  created_at: number;
  updated_at: number;
}

/** Where a rule's alerts go: a webhook URL (with its format and signing secret) or an e-mail address. */
export interface AlertTargetsTable {
  rule_id: string;
  kind: string; // 'webhook' | 'email'
  address: string;
  format: string; // webhook format, '' for e-mail
  secret: string | null;
}

/** One alert sent (or suppressed) for a rule: its attempts and last error. */
export interface AlertDeliveriesTable {
  id: string;
  rule_id: string;
  time: number;
  event: string;
  status: string; // contract alertDeliveryStatuses
  attempts: number;
  last_error: string | null;
  updated_at: number;
}

/** Per node, the last outbox event recorded (0012; docs/activity.md § Node events). */
export interface NodeEventCursorsTable {
  node_id: string;
  outbox: string;
  seq: number | string; // bigint: PostgreSQL answers a string
  updated_at: number;
}
