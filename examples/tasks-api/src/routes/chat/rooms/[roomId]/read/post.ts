import { chatHttp } from '../../../../../lib/chat.js';

/** POST /chat/rooms/{roomId}/read `{ seq }`: moves the read watermark; members get the receipt. */
export const main = chatHttp.markRead;
