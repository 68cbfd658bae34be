import { chatHttp } from '../../../../../lib/chat.js';

/** POST /chat/rooms/{roomId}/members `{ userId, role? }`: moderators add members, owners anyone. */
export const main = chatHttp.addMember;
