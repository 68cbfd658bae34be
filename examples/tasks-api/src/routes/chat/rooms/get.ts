import { chatHttp } from '../../../lib/chat.js';

/** GET /chat/rooms: the caller's rooms, each with its role and exact unread count. */
export const main = chatHttp.listRooms;
