import { defineNotification, escapeHtml } from '@framework/notify';

/** What an unread digest tells a member: their rooms with messages unread for a while, and how many. */
export interface UnreadDigestData {
  readonly total: number;
  readonly rooms: readonly { readonly roomId: string; readonly name: string | null; readonly resource: string | null; readonly unread: number }[];
}

const roomLabel = (room: UnreadDigestData['rooms'][number]) => room.name ?? room.resource ?? 'a direct conversation';

/**
 * The digest `sendUnreadDigests` writes: register it in the app's templates under `UNREAD_DIGEST_TEMPLATE`
 * (`chat-unread-digest`), or pass your own template of the same data.
 */
export const unreadDigestNotification = defineNotification<UnreadDigestData>({
  email: {
    subject: (d) => `${d.total} unread message${d.total === 1 ? '' : 's'} in ${d.rooms.length} conversation${d.rooms.length === 1 ? '' : 's'}`,
    mjml: (d) => `<mjml><mj-body><mj-section><mj-column>
<mj-text font-size="18px" font-weight="bold">You have ${d.total} unread message${d.total === 1 ? '' : 's'}</mj-text>
${d.rooms.map((room) => `<mj-text>${escapeHtml(roomLabel(room))}: ${room.unread}</mj-text>`).join('\n')}
</mj-column></mj-section></mj-body></mjml>`,
    text: (d) => [`You have ${d.total} unread message${d.total === 1 ? '' : 's'}`, ...d.rooms.map((room) => `${roomLabel(room)}: ${room.unread}`)].join('\n'),
  },
  sms: (d) => `${d.total} unread chat message${d.total === 1 ? '' : 's'} (${d.rooms.map(roomLabel).join(', ')})`.slice(0, 300),
});

export const UNREAD_DIGEST_TEMPLATE = 'chat-unread-digest';
