import { chatHttp } from '../../../../lib/chat.js';

/** GET /chat/rooms/{roomId}: the room (members only). */
export const main = chatHttp.getRoom;
