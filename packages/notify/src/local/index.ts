// The local inbox `fw dev` runs (SMTP server + message store); functions reach it through `localInboxProviders()`.
export { LocalInbox, InboxPostError, type LocalInboxOptions } from './local-inbox.js';
export { INBOX_TOKEN_HEADER, type InboxMessage, type InboxPost } from './inbox-message.js';
