export * from './schema';
export * from './load';
export * from './edit';
export * from './first-start';
