export * from './define-notification.js';
export { localize } from './localize.js';
export { renderMessage, templateFor, htmlToText, type RenderInput } from './render.js';
