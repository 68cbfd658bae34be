import { chatHttp } from '../../../../../lib/chat.js';

/** POST /chat/rooms/{roomId}/messages `{ clientMessageId, text }`: sends once per client message id; pushed to the room. */
export const main = chatHttp.sendMessage;
