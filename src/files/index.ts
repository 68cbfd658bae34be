export * from './managed-ts-file';
export * from './render-literal';
export * from './sample-readme';
