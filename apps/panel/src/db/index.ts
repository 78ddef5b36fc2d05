export * from './connect';
export * from './dialect';
export * from './errors';
export * from './migrate';
export type * from './types';
