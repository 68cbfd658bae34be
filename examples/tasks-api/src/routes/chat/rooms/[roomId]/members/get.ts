import { chatHttp } from '../../../../../lib/chat.js';

/** GET /chat/rooms/{roomId}/members: members with their role and read watermark (read receipts). */
export const main = chatHttp.listMembers;
