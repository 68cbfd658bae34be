import { chatHttp } from '../../../../../lib/chat.js';

/** GET /chat/rooms/{roomId}/messages?after=&before=&limit=: history in order (`after`: resume after a cursor). */
export const main = chatHttp.listMessages;
