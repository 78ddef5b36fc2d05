export { buildApp, type BuiltApp, type AppDeps } from './app';
export { startPanel, type RunningPanel, type StartPanelOptions } from './main';
export type { LogDestination } from './logger';
export * from './config';
export { connectDatabase, migrateToLatest, type Db } from './db';
export { readPublicKeyPem, ensurePanelKeys } from './lib/keys';
export { createUserCreator, type NewAccount, type UserCreator } from './modules/users/user-creator';
export { isAppError } from '@hearth/contract';
