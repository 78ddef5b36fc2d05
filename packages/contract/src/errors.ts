/**
 * The one error catalogue.
 * Every error that leaves the panel or a daemon is one of these codes, with its HTTP status and an
 * English message whose `{placeholders}` are filled from `metadata`. The web app translates by code.
 * Body shape on the wire (PufferPanel-compatible): `{"error":{"code","msg","metadata"?}}`.
 */
export const errorCatalogue = {
  // The PufferPanel-compatible codes (docs/errors.md)
  ErrGeneric: { status: 500, message: 'Unknown error' },
  ErrUnknownError: { status: 500, message: 'Unknown error' },
  ErrInvalidCredentials: { status: 400, message: 'Invalid credentials' },
  ErrServiceNotAvailable: { status: 503, message: 'Service not available' },
  ErrEmailNotConfigured: { status: 503, message: 'Email not configured' },
  ErrEmailSendFailed: { status: 502, message: 'The e-mail could not be sent: {reason}' },
  ErrTokenInvalid: { status: 401, message: 'Token is invalid' },
  ErrClientNotFound: { status: 404, message: 'Client not found' },
  ErrUserNotFound: { status: 404, message: 'User not found' },
  ErrLoginNotPermitted: { status: 403, message: 'Login not permitted' },
  ErrInvalidTokenState: { status: 400, message: 'Invalid token state' },
  ErrSettingNotConfigured: { status: 503, message: '{setting} is not configured' },
  ErrNoTemplate: { status: 404, message: "No template with name '{name}' was found" },
  ErrServiceInvalidProvider: { status: 400, message: '{service} does not support {provider}' },
  ErrFieldRequired: { status: 400, message: '{field} is required' },
  ErrFieldMustBePrintable: { status: 400, message: '{field} must contain only printable ASCII characters' },
  ErrFieldHasURICharacters: { status: 400, message: '{field} must not contain URI-unsafe characters' },
  ErrFieldIsInvalidHost: { status: 400, message: '{field} must be a valid IP address or FQDN' },
  ErrFieldIsInvalidIP: { status: 400, message: '{field} must be a valid IP address' },
  ErrFieldTooLarge: { status: 400, message: '{field} must not be larger than {max}' },
  ErrFieldTooSmall: { status: 400, message: '{field} must not be smaller than {min}' },
  ErrFieldNotBetween: { status: 400, message: '{field} must be between {min} and {max}' },
  ErrFieldEqual: { status: 400, message: '{field} must not be equal to {other}' },
  ErrFieldNotEqual: { status: 400, message: '{field} must be equal to {other}' },
  ErrFieldNotEmail: { status: 400, message: '{field} must be a valid e-mail address' },
  ErrFieldLength: { status: 400, message: '{field} must be at least {min} characters long' },
  ErrNoPermission: { status: 403, message: 'You do not have permission to perform this action' },
  ErrDatabaseNotAvailable: { status: 503, message: 'Database is not available' },
  ErrNoNodes: { status: 400, message: 'No nodes available' },
  ErrNoTemplates: { status: 400, message: 'No templates available' },
  ErrPasswordRequirements: { status: 400, message: 'password at least 8 characters' },
  ErrUsernameRequirements: {
    status: 400,
    message: 'username at least 3 characters, only alphanumerics, _ or -',
  },
  ErrPasswordsNotIdentical: { status: 400, message: 'Passwords are not the same' },
  ErrSessionTimedOut: { status: 401, message: 'Your session timed out, please log in again' },
  ErrMissingScope: { status: 403, message: 'You are not authorized to perform this action' },
  ErrInvalidJson: { status: 400, message: 'The json data is invalid' },
  ErrSocketFailed: {
    status: 502,
    message: 'The WebSocket connection encountered an error, some features might be slow or broken',
  },
  ErrInviteLinkInvalid: { status: 400, message: 'Your invite link appears to be invalid' },
  ErrSavingInviteduser: { status: 500, message: 'There was an error creating your account' },
  ErrDuplicateServerName: { status: 409, message: 'A server with this name already exists' },
  ErrDuplicateNodeName: { status: 409, message: 'A node with this name already exists' },
  ErrDirectoryUploadNotSupported: { status: 400, message: 'Cannot upload folders' },

  // Hearth additions (documented in docs/errors.md like the rest)
  ErrNotLoggedIn: { status: 401, message: 'You are not logged in' },
  ErrNotFound: { status: 404, message: 'Not found' },
  ErrFieldUnknown: { status: 400, message: '{field} is not a known field' },
  ErrFieldInvalid: { status: 400, message: '{field} is invalid' },
  ErrFieldInvalidOption: { status: 400, message: '{field} must be one of {options}' },
  ErrPayloadTooLarge: { status: 413, message: 'The request body is larger than {limit} bytes' },
  ErrUnsupportedMediaType: { status: 415, message: 'Unsupported content type {contentType}' },
  ErrRateLimited: { status: 429, message: 'Too many requests, try again in {retryAfter} seconds' },
  ErrMethodNotAllowed: { status: 405, message: 'Method not allowed' },
  ErrSessionExpired: { status: 400, message: 'The login session expired, please log in again' },
  ErrOtpWrong: { status: 400, message: 'The two-factor code is wrong' },
  ErrOtpAlreadyUsed: { status: 400, message: 'This code was already used, wait for the next one' },
  ErrOtpNotEnrolling: { status: 400, message: 'Start two-factor enrolment first' },
  ErrResetLinkInvalid: { status: 400, message: 'This password reset link is invalid or has expired' },
  ErrRegistrationDisabled: { status: 404, message: 'Registration is disabled' },
  ErrDuplicateUser: { status: 409, message: 'A user with this username or e-mail already exists' },
  ErrDuplicateTemplateName: { status: 409, message: 'A template with this name already exists' },
  ErrCannotGrantPermission: { status: 403, message: 'You cannot grant a permission you do not hold' },
  ErrCannotEditUser: {
    status: 403,
    message: 'You cannot change an account that holds permissions you do not have',
  },
  ErrSessionRequired: { status: 403, message: 'This action needs a login session, not an API token' },
  ErrCannotDeleteSelf: { status: 400, message: 'You cannot delete your own account' },
  ErrSetupTokenInvalid: { status: 400, message: 'The setup link is invalid or was already used' },
  ErrUnknownSetting: { status: 404, message: "'{key}' is not a known setting" },
  ErrNodeInvalid: { status: 400, message: 'The node is invalid' },
  ErrNodeNotFound: { status: 404, message: 'Node not found' },
  ErrNodeHasServers: { status: 409, message: 'The node still has servers' },
  ErrNodePackageMissing: {
    status: 404,
    message:
      'This panel has no Hearth package for {arch}: copy hearth_*_{arch}.deb (npm run package:deb or a release) into {dir}',
  },
  ErrNodeIsLocal: { status: 400, message: 'The local node cannot be deleted' },
  ErrNodeOffline: { status: 502, message: 'The node {node} is not reachable' },
  ErrNodeTimeout: { status: 504, message: 'The node {node} did not answer in time' },
  ErrNodeCertificate: {
    status: 502,
    message: 'The node {node} did not prove its identity: its certificate is not the one the panel expects',
  },
  ErrNodeLinkLost: {
    status: 502,
    message: 'The link to the node {node} dropped during the request',
  },
  ErrNodeLinkMode: {
    status: 409,
    message: 'The node {node} is set to be reached by the panel; it may not dial in (its link is {link})',
  },
  ErrNodeLinkPort: {
    status: 409,
    message: 'Port {port} is already used by the panel or by another node that dials in',
  },
  ErrServerNotFound: { status: 404, message: 'Server not found' },
  ErrServerAlreadyExists: { status: 409, message: 'A server with this id already exists' },
  ErrServerOffline: { status: 409, message: 'The server is not running' },
  ErrServerRunning: { status: 409, message: 'The server is already running' },
  ErrServerInstalling: { status: 409, message: 'The server is installing, try again when it has finished' },
  ErrServerBusy: { status: 409, message: 'Another power action is in progress' },
  ErrServerStartFailed: { status: 500, message: 'The server could not be started: {reason}' },
  ErrServerDisabled: { status: 409, message: 'The server is disabled' },
  ErrInvalidDefinition: { status: 400, message: 'The server definition is invalid: {reason}' },
  ErrUnknownProcessor: { status: 400, message: "Unknown processor type '{type}'" },
  ErrProcessorFailed: { status: 500, message: 'Step {step} ({type}) failed: {reason}' },
  ErrCommandSyntax: { status: 400, message: 'The command line is invalid: {reason}' },
  ErrVariableType: { status: 400, message: "Variable '{field}' must be of type {type}" },
  ErrDownloadRefused: { status: 400, message: 'Download from {url} refused: {reason}' },
  ErrIllegalFileAccess: { status: 400, message: 'Access to this path is not allowed' },
  ErrFileNotFound: { status: 404, message: 'File not found' },
  ErrFileExists: { status: 409, message: 'A file with this name already exists' },
  ErrFileTooLarge: { status: 413, message: 'The file is larger than {limit} bytes' },
  ErrNotAFile: { status: 400, message: 'The path is not a file' },
  ErrNotADirectory: { status: 400, message: 'The path is not a folder' },
  ErrMoveIntoItself: { status: 400, message: 'A folder cannot be moved or copied into itself' },
  ErrFileNoSpace: { status: 507, message: 'Not enough disk space on the node for this copy' },
  ErrCopyTooLarge: { status: 413, message: 'The copy is larger than the allowed limit' },
  ErrArchiveInvalid: { status: 400, message: 'The archive is invalid: {reason}' },
  ErrArchiveTooLarge: { status: 413, message: 'The archive expands beyond the allowed limit' },
  ErrUploadNotFound: { status: 404, message: 'Upload not found' },
  ErrUploadOffset: { status: 409, message: 'The upload is at byte {offset}' },
  ErrUploadNoSpace: { status: 507, message: 'Not enough space for this upload' },
  ErrTusVersion: { status: 412, message: 'Unsupported tus version {version}' },
  ErrTransferSameNode: { status: 400, message: 'The server is already on the node {node}' },
  ErrTransferInProgress: { status: 409, message: 'The server is being moved to another node' },
  ErrTransferNoSpace: {
    status: 507,
    message: 'The node {node} has not enough free space for this server ({needed} bytes needed)',
  },
  ErrTransferChecksum: { status: 502, message: 'The copy on the node {node} does not match the original' },
  ErrTransferFailed: { status: 502, message: 'Moving the server failed: {reason}' },
  ErrTransferNotFound: { status: 404, message: 'No incoming copy of this server on the node' },
  ErrInvalidUnixTime: { status: 400, message: 'The time must be a unix epoch in milliseconds' },
  ErrTaskNotFound: { status: 404, message: 'Task not found' },
  ErrInvalidCron: { status: 400, message: 'invalid task schedule' },
  ErrDockerNotAvailable: { status: 503, message: 'Docker is not available on this node: {reason}' },
  ErrDockerPermission: { status: 503, message: 'Permission denied on the Docker socket' },
  ErrDockerImageMissing: { status: 400, message: "The image '{image}' is not available" },
  ErrDockerPortAllocated: { status: 409, message: 'Port {port} is already allocated' },
  ErrDockerBindingInvalid: { status: 400, message: "The binding '{binding}' is invalid" },
  ErrDaemonTokenInvalid: { status: 401, message: 'The daemon token is invalid' },
  ErrSocketLimit: { status: 429, message: 'Too many connections to this server' },
  ErrCrossSiteRequest: {
    status: 403,
    message: 'Requests from other sites are refused; use the panel itself',
  },
  ErrBodyTooComplex: {
    status: 400,
    message: 'The request body is nested deeper than {maxDepth} levels or holds more than {maxValues} values',
  },
  ErrServerIdsExhausted: { status: 503, message: 'This node has no free user id left for another server' },
  // Backups (docs/backups.md)
  ErrBackupNotFound: { status: 404, message: 'Backup not found' },
  ErrBackupBusy: { status: 409, message: 'Another backup or restore of this server is running ({kind})' },
  ErrBackupPathInvalid: { status: 400, message: 'The path must stay inside the server folder' },
  ErrBackupPathNotFound: { status: 404, message: "'{path}' is not in this backup" },
  ErrBackupLocked: { status: 409, message: 'This backup is locked; unlock it first' },
  ErrBackupLimitReached: { status: 409, message: 'This server has reached its backup limit ({limit})' },
  ErrBackupTooSoon: { status: 429, message: 'The next manual backup is possible in {seconds} s' },
  ErrBackupHookTimeout: {
    status: 504,
    message: "The server did not print '{waitFor}' within {seconds} s; no backup was taken",
  },
  ErrBackupDestinationUnreachable: {
    status: 502,
    message: 'The backup destination cannot be reached: {reason}',
  },
  ErrBackupDestinationFull: { status: 507, message: 'The backup destination is full' },
  ErrBackupUnavailable: { status: 503, message: 'Backups are not available on this node: {reason}' },
  ErrBackupFailed: { status: 500, message: 'The backup operation failed: {reason}' },
  ErrRestoreServerRunning: { status: 409, message: 'Stop the server before restoring a backup into it' },
  ErrRestoreNoSpace: { status: 507, message: 'Not enough disk space on the node to restore this backup' },

  // Alerts (docs/alerts.md)
  ErrAlertNotFound: { status: 404, message: 'Alert rule not found' },
  ErrAlertTargetRefused: { status: 400, message: 'The alert target {url} is refused: {reason}' },
  ErrAlertRuleInvalid: { status: 400, message: 'This alert rule is invalid: {reason}' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof errorCatalogue;
export type ErrorMetadata = Record<string, string | number | boolean | null | readonly string[]>;

export interface ErrorBody {
  error: { code: ErrorCode; msg: string; metadata?: ErrorMetadata };
}

export const errorCodes = Object.keys(errorCatalogue) as ErrorCode[];

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(errorCatalogue, code);
}

/** Fills `{name}` placeholders from metadata; unknown placeholders stay as they are. */
export function formatMessage(template: string, metadata: ErrorMetadata = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => {
    const value = metadata[key];
    if (value === undefined || value === null) return whole;
    return Array.isArray(value) ? value.join(', ') : String(value);
  });
}

/** The one error class of Hearth: thrown anywhere, turned into a response by the one handler (@hearth/server-kit). */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly metadata: ErrorMetadata | undefined;

  constructor(code: ErrorCode, metadata?: ErrorMetadata, options?: { cause?: unknown; status?: number }) {
    super(formatMessage(errorCatalogue[code].message, metadata), { cause: options?.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = options?.status ?? errorCatalogue[code].status;
    this.metadata = metadata && Object.keys(metadata).length > 0 ? metadata : undefined;
  }

  toBody(): ErrorBody {
    return {
      error: {
        code: this.code,
        msg: this.message,
        ...(this.metadata ? { metadata: this.metadata } : {}),
      },
    };
  }
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}
