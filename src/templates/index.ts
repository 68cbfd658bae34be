export * from './framework-template';
