import { chatHttp } from '../../../../../../lib/chat.js';

/** DELETE /chat/rooms/{roomId}/members/{userId}: removes a member, or leaves the room (one's own user id). */
export const main = chatHttp.removeMember;
