import { ENV } from '@framework/core/names';
import type { Service } from '@framework/runtime';
import type { ChatEvent } from '../events/chat-event.js';
import { pushFrameOf, type ChatPushFrame } from './frames.js';
import { roomTopic } from './room-topic.js';

/** Sends frames to a room's connections (those that joined it over the app's WebSocket API). */
export interface RoomFanOut {
  push(roomId: string, frame: ChatPushFrame): Promise<void>;
  /** A change's frame, if it has one (a retried send has none); a removal also ends the member's live updates. */
  event(event: ChatEvent): Promise<void>;
  /** Unsubscribes every connection of `userId` from the room's topic; the ones that were subscribed. */
  detach(roomId: string, userId: string): Promise<string[]>;
}

/**
 * The room fan-out of `tenantId` through `service.ws` (the framework's connection registry: topics, fan-out queue for
 * large rooms, gone connections forgotten). An app without a WebSocket API has no connections to reach: nothing is
 * sent, and HTTP routes still work.
 */
export function roomFanOut(service: Service, tenantId: string): RoomFanOut {
  const live = () => Boolean(process.env[ENV.wsManagementUrl]);
  const push = async (roomId: string, frame: ChatPushFrame) => {
    if (!live()) return;
    await service.ws.publish(roomTopic(tenantId, roomId), frame);
  };
  const detach = async (roomId: string, userId: string): Promise<string[]> => {
    if (!live()) return [];
    const topic = roomTopic(tenantId, roomId);
    // Only this tenant's room topic is touched: the same subject's connections in another tenant (another token)
    // never joined it, and are neither unsubscribed from anything else nor told.
    const [mine, subscribed] = await Promise.all([service.ws.connections({ user: userId }), service.ws.connections({ topic })]);
    const inRoom = new Set(subscribed);
    const detached = mine.filter((id) => inRoom.has(id));
    await Promise.all(detached.map((id) => service.ws.unsubscribe(id, topic)));
    return detached;
  };
  return {
    push,
    detach,
    async event(event) {
      if (event.type === 'member.removed') {
        // Unsubscribed before the removal is told (and before the call that removed them answers): from then on no
        // frame of the room reaches the member's connections. They learn of it once, on each connection they had.
        const detached = await detach(event.roomId, event.userId);
        const frame = pushFrameOf(event)!;
        await push(event.roomId, frame);
        if (detached.length) await service.ws.broadcast(detached, frame);
        return;
      }
      const frame = pushFrameOf(event);
      if (frame) await push(event.roomId, frame);
    },
  };
}
