import type { DaemonConfig } from '../config/schema';
import type { ServerManager } from '../manager/manager';
import type { TokenVerifier } from './token';

export interface TransportContext {
  manager: ServerManager;
  verifier: TokenVerifier;
  config: DaemonConfig;
}
