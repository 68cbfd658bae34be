import { chatHttp } from '../../../lib/chat.js';

/** POST /chat/rooms `{ name?, members? }`: a group room; the caller is its owner. */
export const main = chatHttp.createRoom;
