export * from './provider.js';
export * from './aws-errors.js';
export * from './ses.js';
export * from './sms.js';
export * from './whatsapp.js';
export * from './push-web.js';
export * from './push-sns.js';
export { smtpProvider, type SmtpProviderOptions } from './smtp.js';
export { localInboxProviders, localInboxAvailable, type LocalDeliveryRules, type LocalInboxProvidersOptions } from './local-inbox.js';
