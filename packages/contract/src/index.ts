export * from './errors';
export * from './permissions';
export * from './template';
export * from './template-variables';
export * from './daemon-token';
export * from './daemon';
export * from './files';
export * from './tasks';
